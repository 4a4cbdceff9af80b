import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Select,
  Subtitle2,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recordOfflinePayment, writeOffOrder, type OfflineMethod, type OrderDetail } from '../api/orders';
import { zonedDateTime, parseYuan, yuan } from '@/components/data/format';
import { usePermission } from '@/components/Permission';
import { notify } from '@/utils/notify';
import { DATA_SLOT, WithData } from '@/components/data/DataText';

const METHODS: OfflineMethod[] = ['cash', 'bankTransfer', 'wechat', 'alipay', 'other'];

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  row: { display: 'flex', alignItems: 'center', columnGap: '10px', flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  form: { display: 'flex', flexDirection: 'column', rowGap: '12px' },
});

/** What the order still owes: amount - paid, for an order nobody settled and nothing was collected for. */
export function owedFen(o: OrderDetail): number {
  // A billed order (a postpaid card's session) is owed by its holder until finance records the payment.
  if (o.settlement || (o.paymentStatus !== 'unpaid' && o.paymentStatus !== 'billed') || o.status === 'charging') return 0;
  return Math.max(0, o.amountFen - o.paidFen);
}

/**
 * The order's payment section: what is owed, and for
 * finance (approve:refund) the two things a finance desk does about it:
 * record a payment received offline, or write the amount off with a
 * reason. Once settled it shows who did what and when. The server checks
 * everything again (the whole amount owed, once per order).
 */
export function PaymentSection({ order: o, onDone }: { order: OrderDetail; onDone: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const canSettle = usePermission(['approve:refund']);
  const [dialog, setDialog] = useState<'pay' | 'writeOff' | null>(null);
  const owed = owedFen(o);
  const s = o.settlement;
  if (!s && owed === 0) return null;
  return (
    <Card className={styles.card} data-testid="payment-section">
      <CardHeader header={<Subtitle2>{t('ord.pay.title')}</Subtitle2>} />
      {s ? (
        <div data-testid="settlement">
          <Body1>
            {s.kind === 'offlinePayment'
              ? t('ord.pay.paidOffline', {
                  amount: yuan(s.amountFen),
                  method: s.method ? t(`ord.pay.method.${s.method}`) : '',
                  reference: s.reference ? ` · ${s.reference}` : '',
                  by: s.by,
                  at: zonedDateTime(s.at),
                })
              : t('ord.pay.writtenOff', { amount: yuan(s.amountFen), reason: s.reason ?? '', by: s.by, at: zonedDateTime(s.at) })}
          </Body1>
          {s.kind === 'offlinePayment' && s.reason && <Caption1 className={styles.muted}>{t('ord.pay.noteLine', { note: s.reason })}</Caption1>}
        </div>
      ) : (
        <div className={styles.row}>
          {o.billedTo && (
            <Caption1 data-testid="payment-billed-to">
              <WithData sentence={t('ord.pay.billedTo', { holder: DATA_SLOT })} data={o.billedTo} />
            </Caption1>
          )}
          <Body1 data-testid="payment-owed">
            {t('ord.pay.owed')}: {yuan(owed)}
          </Body1>
          {canSettle ? (
            <>
              <Button appearance="primary" onClick={() => setDialog('pay')} data-testid="payment-record">
                {t('ord.pay.record')}
              </Button>
              <Button onClick={() => setDialog('writeOff')} data-testid="payment-write-off">
                {t('ord.pay.writeOff')}
              </Button>
            </>
          ) : (
            <Caption1 className={styles.muted}>{t('ord.pay.onlyFinance')}</Caption1>
          )}
        </div>
      )}
      {dialog === 'pay' && <PayDialog order={o} owed={owed} onClose={() => setDialog(null)} onDone={onDone} />}
      {dialog === 'writeOff' && <WriteOffDialog order={o} owed={owed} onClose={() => setDialog(null)} onDone={onDone} />}
    </Card>
  );
}

function useSubmit(onClose: () => void, onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const run = async (send: () => Promise<string>) => {
    setBusy(true);
    try {
      notify(await send(), 'success');
      onDone();
      onClose();
    } catch {
      /* the request layer showed the server's message (a 409 when someone settled it first) */
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

function PayDialog({ order: o, owed, onClose, onDone }: { order: OrderDetail; owed: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [method, setMethod] = useState<OfflineMethod>('cash');
  const [reference, setReference] = useState('');
  const [amount, setAmount] = useState(yuan(owed, false));
  const [note, setNote] = useState('');
  const [amountError, setAmountError] = useState('');
  const { busy, run } = useSubmit(onClose, onDone);
  const checkAmount = (v: string) => (parseYuan(v) === owed ? '' : t('ord.pay.amountBad', { owed: yuan(owed) }));
  const submit = () => {
    const e = checkAmount(amount);
    setAmountError(e);
    if (e) return;
    void run(() => recordOfflinePayment(o.orderNo, method, reference.trim(), amount.trim(), note.trim()));
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('ord.pay.recordTitle', { no: o.orderNo })}</DialogTitle>
          <DialogContent className={styles.form}>
            <span>{t('ord.pay.recordHint', { owed: yuan(owed) })}</span>
            <Field label={t('ord.pay.methodLabel')} required>
              <Select value={method} onChange={(_, d) => setMethod(d.value as OfflineMethod)} data-testid="pay-method">
                {METHODS.map((m) => (
                  <option key={m} value={m}>
                    {t(`ord.pay.method.${m}`)}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label={t('ord.pay.reference')}>
              <Input value={reference} maxLength={100} onChange={(_, d) => setReference(d.value)} data-testid="pay-reference" />
            </Field>
            <Field label={t('ord.pay.amount')} required validationMessage={amountError || undefined}>
              <Input value={amount} onChange={(_, d) => setAmount(d.value)} onBlur={() => setAmountError(checkAmount(amount))} data-testid="pay-amount" />
            </Field>
            <Field label={t('ord.pay.note')}>
              <Textarea value={note} maxLength={200} onChange={(_, d) => setNote(d.value)} />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('ord.cancel')}</Button>
            <Button appearance="primary" disabled={busy} onClick={submit} data-testid="pay-submit">
              {t('ord.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function WriteOffDialog({ order: o, owed, onClose, onDone }: { order: OrderDetail; owed: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const { busy, run } = useSubmit(onClose, onDone);
  const submit = () => {
    const e = reason.trim() ? '' : t('ord.pay.reasonRequired');
    setError(e);
    if (e) return;
    void run(() => writeOffOrder(o.orderNo, reason.trim()));
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('ord.pay.writeOffTitle', { no: o.orderNo })}</DialogTitle>
          <DialogContent className={styles.form}>
            <span>{t('ord.pay.writeOffHint', { owed: yuan(owed) })}</span>
            <Field label={t('ord.pay.reason')} required validationMessage={error || undefined}>
              <Textarea value={reason} maxLength={200} onChange={(_, d) => setReason(d.value)} data-testid="write-off-reason" />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('ord.cancel')}</Button>
            <Button appearance="primary" disabled={busy} onClick={submit} data-testid="write-off-submit">
              {t('ord.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
