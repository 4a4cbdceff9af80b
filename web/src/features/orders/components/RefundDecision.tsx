import { Button } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { approveRefund, rejectRefund, type RefundRecord } from '../api/orders';
import { yuan } from '@/components/data/format';
import { PromptDialog } from './PromptDialog';
import { notify } from '@/utils/notify';

export interface RefundDecision {
  kind: 'approve' | 'reject';
  refund: RefundRecord;
}

/**
 * Approving or rejecting a refund request (the order detail and the finance
 * queue): an optional note, shown with the decision on the order.
 */
export function RefundDecisionDialog({ decision, onClose, onDone }: { decision: RefundDecision | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { mutate: revalidate } = useSWRConfig();
  const r = decision?.refund;
  const approve = decision?.kind === 'approve';
  const vars = { amount: yuan(r?.amountFen ?? 0), no: r?.orderNo ?? '' };
  return (
    <PromptDialog
      open={decision !== null}
      title={approve ? t('ord.d.approveTitle', vars) : t('ord.d.rejectTitle', vars)}
      hint={approve ? t('ord.d.approveHint') : undefined}
      fields={[{ label: approve ? t('ord.d.approveNote') : t('ord.d.rejectNote'), multiline: true, optional: true, check: (v) => (v.trim().length > 200 ? t('ord.noteTooLong') : '') }]}
      onClose={onClose}
      onSubmit={async ([note]) => {
        if (!r) return;
        try {
          notify(approve ? await approveRefund(r.orderNo, r.id, note ?? '') : await rejectRefund(r.orderNo, r.id, note ?? ''), 'success');
          // Money moved: every finance figure already loaded (an open finance tab too) is stale.
          if (approve) void revalidate((key) => Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith('money/'));
        } finally {
          onDone();
        }
      }}
    />
  );
}

/** Approve / reject of one pending request (the order page and the finance queue). */
export function RefundDecisionButtons({ refund, onDecide, testid }: { refund: RefundRecord; onDecide: (d: RefundDecision) => void; testid: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Button size="small" appearance="primary" onClick={() => onDecide({ kind: 'approve', refund })} data-testid={`${testid}-approve`}>
        {t('ord.d.approve')}
      </Button>{' '}
      <Button size="small" onClick={() => onDecide({ kind: 'reject', refund })} data-testid={`${testid}-reject`}>
        {t('ord.d.reject')}
      </Button>
    </>
  );
}
