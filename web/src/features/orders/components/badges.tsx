import { Badge } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { Anomaly, OrderStatus, PaymentStatus, RefundStatus } from '../api/orders';

const STATUS_COLOUR = { charging: 'brand', finished: 'success', abnormal: 'danger', cancelled: 'subtle' } as const;
const PAYMENT_COLOUR = { unpaid: 'warning', paid: 'success', refunded: 'important', partiallyRefunded: 'informative', writtenOff: 'subtle', billed: 'brand' } as const;
const REFUND_COLOUR = { pending: 'warning', approved: 'success', rejected: 'subtle' } as const;

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <Badge appearance="tint" color={STATUS_COLOUR[status] ?? 'informative'} data-testid="order-status">
      {t(`ord.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function PaymentBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  return (
    <Badge appearance="outline" color={PAYMENT_COLOUR[status] ?? 'informative'}>
      {t(`ord.payment.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function RefundBadge({ status }: { status: RefundStatus }) {
  const { t } = useTranslation();
  return (
    <Badge appearance="tint" color={REFUND_COLOUR[status] ?? 'informative'}>
      {t(`ord.d.refundStatus.${status}`, { defaultValue: status })}
    </Badge>
  );
}

/** One badge per anomaly; "never stopped" shows how long it has been open. */
export function AnomalyBadges({ anomalies }: { anomalies: Anomaly[] }) {
  const { t } = useTranslation();
  return (
    <>
      {anomalies.map((a, i) => (
        <Badge key={i} appearance="filled" color={a.kind === 'neverStopped' ? 'danger' : 'warning'} size="small" data-testid="anomaly">
          {a.kind === 'charger'
            ? t(`ord.chargerProblem.${a.problem}`, { defaultValue: a.problem })
            : t(`ord.anomaly.${a.kind}`, { h: ((a.kind === 'neverStopped' ? a.runningSecs : 0) / 3600).toFixed(1), defaultValue: a.kind })}
        </Badge>
      ))}
    </>
  );
}
