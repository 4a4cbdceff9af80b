import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Spinner,
  Subtitle1,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { useSearchParams } from 'react-router';
import { closeOrder, requestRefund, useOrderDetail, type RefundRecord } from '../api/orders';
import { confirm } from '@/components/Confirm';
import { zonedDateTime, duration, kwh, parseYuan, unitPrice, yuan } from '@/components/data/format';
import { AnomalyBadges, OrderStatusBadge, PaymentBadge, RefundBadge } from '../components/badges';
import { curveOption, socReported } from '../model/curveOption';
import { chargerLabel } from '../components/orderColumns';
import { LazyChart } from '@/components/LazyChart';
import { PaymentSection } from '../components/PaymentSection';
import { PromptDialog } from '../components/PromptDialog';
import { RefundDecisionButtons, RefundDecisionDialog, type RefundDecision } from '../components/RefundDecision';
import { usePermission } from '@/components/Permission';
import { COMMAND_COLOUR, commandDone, sendCommand, useCommand } from '@/features/stations';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: '16px' },
  card: { padding: '16px', rowGap: '12px' },
  head: { display: 'flex', alignItems: 'center', columnGap: '10px', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: '10px 24px' },
  pair: { display: 'flex', flexDirection: 'column', rowGap: '2px' },
  label: { color: tokens.colorNeutralForeground3 },
  chart: { width: '100%', height: '320px' },
  num: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  twoCol: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(420px, 100%), 1fr))', gap: '16px' },
});

function Pair({ label, children, testid }: { label: string; children: React.ReactNode; testid?: string }) {
  const styles = useStyles();
  return (
    <div className={styles.pair} data-testid={testid}>
      <Caption1 className={styles.label}>{label}</Caption1>
      <Body1>{children}</Body1>
    </div>
  );
}

function RefundTable({ refunds, onDone }: { refunds: RefundRecord[]; onDone: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const canApprove = usePermission(['approve:refund']);
  const [deciding, setDeciding] = useState<RefundDecision | null>(null);
  return (
    <>
      <Table size="small" data-testid="refund-table">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{t('ord.d.requestedAt')}</TableHeaderCell>
            <TableHeaderCell className={styles.num}>{t('ord.d.amount')}</TableHeaderCell>
            <TableHeaderCell>{t('ord.d.reasonCol')}</TableHeaderCell>
            <TableHeaderCell>{t('ord.d.requestedBy')}</TableHeaderCell>
            <TableHeaderCell>{t('ord.d.status')}</TableHeaderCell>
            <TableHeaderCell>{t('ord.d.decidedBy')}</TableHeaderCell>
            <TableHeaderCell>{t('ord.d.noteCol')}</TableHeaderCell>
            <TableHeaderCell />
          </TableRow>
        </TableHeader>
        <TableBody>
          {refunds.map((r) => (
            <TableRow key={r.id} data-testid="refund-row">
              <TableCell>{zonedDateTime(r.requestedAt)}</TableCell>
              <TableCell className={styles.num}>{yuan(r.amountFen)}</TableCell>
              <TableCell translate="no">{r.reason}</TableCell>
              <TableCell translate="no">{r.requestedBy}</TableCell>
              <TableCell>
                <RefundBadge status={r.status} />
              </TableCell>
              <TableCell>
                {r.decidedBy ? (
                  <>
                    <DataText>{r.decidedBy}</DataText> {zonedDateTime(r.decidedAt)}
                  </>
                ) : (
                  ''
                )}
              </TableCell>
              <TableCell data-testid="refund-note" translate="no">
                {r.decisionNote ?? ''}
              </TableCell>
              <TableCell>
                {canApprove && r.status === 'pending' && <RefundDecisionButtons refund={r} onDecide={setDeciding} testid="refund" />}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <RefundDecisionDialog decision={deciding} onClose={() => setDeciding(null)} onDone={onDone} />
    </>
  );
}

/** One charging order (a tab per order): facts, amounts, tier lines, tariff snapshot, meter curve, refunds. */
export default function OrderDetailView() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const canWrite = usePermission(['write:system']);
  const [dialog, setDialog] = useState<'close' | 'refund' | null>(null);
  // Read again while charging: energy, curve and status follow the charger.
  const { data: o, isLoading, error, mutate } = useOrderDetail(id);
  // The remote stop sent from this page, followed until the charger answers.
  const [stopId, setStopId] = useState<string | null>(null);
  const stop = useCommand(stopId);
  const stopStatus = stop.data?.status;
  // Once the charger answered the stop, read the order now rather than at the next poll.
  useEffect(() => {
    if (stopStatus === 'answered') void mutate();
  }, [stopStatus, mutate]);
  if (isLoading) return <Spinner />;
  if (!o || error) return <Body1 data-testid="detail-missing">{t('ord.d.notFound', { id: id || '—' })}</Body1>;
  const closable = o.status === 'abnormal' || (o.status === 'charging' && o.anomalies.length > 0);
  const maxRefund = o.refundableFen;
  return (
    <div className={styles.page} data-testid="order-detail">
      <Card className={styles.card}>
        <div className={styles.head}>
          <Subtitle1 data-testid="detail-order-no">{o.orderNo}</Subtitle1>
          <OrderStatusBadge status={o.status} />
          <PaymentBadge status={o.paymentStatus} />
          <AnomalyBadges anomalies={o.anomalies} />
          {o.status === 'charging' && (
            <Caption1 className={styles.label} data-testid="detail-live">
              {t('ord.d.live')}
            </Caption1>
          )}
          {stop.data && (
            <Badge appearance="tint" color={COMMAND_COLOUR[stop.data.status]} data-testid="detail-stop-status">
              {t('ord.d.stopCommand', { status: t(`chg.cmd.status.${stop.data.status}`) })}
            </Badge>
          )}
          <span className={styles.grow} />
          {canWrite && o.status === 'charging' && o.transactionId != null && (
            <Button
              disabled={!!stop.data && !commandDone(stop.data)}
              onClick={async () => {
                if (!(await confirm(t('chg.cmd.confirmStop', { no: o.orderNo })))) return;
                try {
                  const c = await sendCommand('remoteStop', { orderNo: o.orderNo });
                  setStopId(c.id);
                  notify(t(`chg.cmd.status.${c.status}`), c.status === 'offline' ? 'warning' : 'info');
                } catch {
                  // shown by the request layer
                }
              }}
              data-testid="detail-remote-stop"
            >
              {t('chg.cmd.remoteStop')}
            </Button>
          )}
          {canWrite && closable && (
            <Button onClick={() => setDialog('close')} data-testid="detail-close">
              {t('ord.close')}
            </Button>
          )}
          {canWrite && maxRefund > 0 && (
            <Button appearance="primary" onClick={() => setDialog('refund')} data-testid="detail-refund">
              {t('ord.d.requestRefund')}
            </Button>
          )}
        </div>
        <div className={styles.grid}>
          <Pair label={t('ord.col.station')}>
            <DataText>{o.stationName || o.stationId}</DataText>
          </Pair>
          <Pair label={t('ord.d.pile')} testid="detail-charger">
            {chargerLabel(t, o)}
          </Pair>
          <Pair label={t('ord.col.user')}>
            <DataText>{`${o.userId} / ${o.plate}`}</DataText>
          </Pair>
          <Pair label={t('ord.col.start')}>{zonedDateTime(o.startTs)}</Pair>
          <Pair label={t('ord.col.stop')}>{zonedDateTime(o.stopTs)}</Pair>
          <Pair label={t('ord.col.duration')}>{duration(o.durationSecs, i18n.language)}</Pair>
          <Pair label={t('ord.d.meterStart')}>{kwh(o.meterStartWh)}</Pair>
          <Pair label={t('ord.d.meterStop')}>{kwh(o.meterStopWh)}</Pair>
          <Pair label={t('ord.col.energy')} testid="detail-energy">
            {kwh(o.energyWh)}
          </Pair>
          {/* A charger that never reported the state of charge has nothing to show here. */}
          {(o.socStart > 0 || o.socEnd != null || socReported(o.curve ?? [])) && (
            <Pair label={t('ord.d.soc')} testid="detail-soc">
              {t('ord.d.socRange', { start: `${o.socStart}%`, end: o.socEnd != null ? `${o.socEnd}%` : '—' })}
            </Pair>
          )}
          <Pair label={t('ord.col.stopReason')}>{o.stopReason ? t(`ord.stopReason.${o.stopReason}`) : '—'}</Pair>
          <Pair label={t('ord.col.method')}>{o.paymentMethod ? t(`ord.method.${o.paymentMethod}`) : '—'}</Pair>
          {o.closedBy && (
            <Pair label={t('ord.d.closedBy')} testid="detail-closed-by">
              {t('ord.d.closedByValue', { by: o.closedBy, at: zonedDateTime(o.closedAt), reason: o.closeReason })}
            </Pair>
          )}
        </div>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('ord.d.curve')}</Subtitle2>} />
        {o.curve && o.curve.length > 1 ? (
          <div data-testid="detail-curve">
            <LazyChart className={styles.chart} renderer="svg" option={curveOption(o.curve, { power: t('ord.d.power'), energy: t('ord.d.energy'), soc: t('ord.d.socAxis') })} />
          </div>
        ) : (
          <Body1>{t('ord.d.noCurve')}</Body1>
        )}
      </Card>
      <div className={styles.twoCol}>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('ord.d.money')}</Subtitle2>} />
          <div className={styles.grid} data-testid="detail-money">
            <Pair label={t('ord.col.electricity')}>{yuan(o.electricityFen)}</Pair>
            <Pair label={t('ord.col.service')}>{yuan(o.serviceFen)}</Pair>
            <Pair label={t('ord.col.parking')}>{yuan(o.parkingFen)}</Pair>
            <Pair label={t('ord.col.discount')}>{yuan(o.discountFen)}</Pair>
            <Pair label={t('ord.col.amount')} testid="detail-amount">
              {yuan(o.amountFen)}
            </Pair>
            <Pair label={t('ord.col.paid')}>{yuan(o.paidFen)}</Pair>
            <Pair label={t('ord.col.refunded')} testid="detail-refunded">
              {yuan(o.refundedFen)}
            </Pair>
            <Pair label={t('ord.d.refundable')} testid="detail-refundable">
              {yuan(o.refundableFen)}
            </Pair>
            {o.pendingRefundFen > 0 && (
              <Pair label={t('ord.d.pendingRefund')} testid="detail-pending-refund">
                {yuan(o.pendingRefundFen)}
              </Pair>
            )}
          </div>
          <Subtitle2>{t('ord.d.lines')}</Subtitle2>
          <Table size="small" data-testid="detail-lines">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('ord.d.tier')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.col.energy')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.d.electricityPrice')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.d.servicePrice')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.col.electricity')}</TableHeaderCell>
                <TableHeaderCell className={styles.num}>{t('ord.col.service')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {o.lines.map((l) => (
                <TableRow key={l.tier}>
                  <TableCell>{t(`ord.tier.${l.tier}`)}</TableCell>
                  <TableCell className={styles.num}>{kwh(l.energyWh)}</TableCell>
                  <TableCell className={styles.num}>{unitPrice(l.electricityPrice)}</TableCell>
                  <TableCell className={styles.num}>{unitPrice(l.servicePrice)}</TableCell>
                  <TableCell className={styles.num}>{yuan(l.electricityFen)}</TableCell>
                  <TableCell className={styles.num}>{yuan(l.serviceFen)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
        <Card className={styles.card}>
          <CardHeader
            header={<Subtitle2>{t('ord.d.tariff')}</Subtitle2>}
            description={
              o.tariff ? (
                <>
                  <DataText>{o.tariff.name}</DataText> · {t('ord.d.version', { v: o.tariff.version })}
                </>
              ) : undefined
            }
          />
          {o.tariff ? (
            <>
              <Table size="small" data-testid="detail-tariff">
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell>{t('ord.d.segment')}</TableHeaderCell>
                    <TableHeaderCell>{t('ord.d.tier')}</TableHeaderCell>
                    <TableHeaderCell className={styles.num}>{t('ord.d.electricityPrice')}</TableHeaderCell>
                    <TableHeaderCell className={styles.num}>{t('ord.d.servicePrice')}</TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {o.tariff.segments.map((s) => (
                    <TableRow key={s.start}>
                      <TableCell>{`${s.start} – ${s.end}`}</TableCell>
                      <TableCell>{t(`ord.tier.${s.tier}`)}</TableCell>
                      <TableCell className={styles.num}>{unitPrice(o.tariff!.prices[s.tier]?.electricity)}</TableCell>
                      <TableCell className={styles.num}>{unitPrice(o.tariff!.prices[s.tier]?.service)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {o.tariff.parking && <Caption1>{t('ord.d.parkingRule', { free: o.tariff.parking.freeMinutes, fee: yuan(o.tariff.parking.fenPerMinute) })}</Caption1>}
            </>
          ) : (
            <Body1>{t('ord.d.noTariff')}</Body1>
          )}
        </Card>
      </div>
      <PaymentSection order={o} onDone={() => void mutate()} />
      {o.refunds.length > 0 && (
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2>{t('ord.d.refunds')}</Subtitle2>} />
          <RefundTable refunds={o.refunds} onDone={() => void mutate()} />
        </Card>
      )}
      <PromptDialog
        open={dialog === 'close'}
        title={t('ord.closeTitle', { no: o.orderNo })}
        hint={t('ord.closeHint')}
        fields={[{ label: t('ord.reason'), multiline: true, check: (v) => (v.trim() ? '' : t('ord.reasonRequired')) }]}
        onClose={() => setDialog(null)}
        onSubmit={async ([reason]) => {
          notify(await closeOrder(o.orderNo, reason ?? ''), 'success');
          void mutate();
        }}
      />
      <PromptDialog
        open={dialog === 'refund'}
        title={t('ord.d.refundTitle', { no: o.orderNo })}
        hint={
          o.pendingRefundFen > 0 ? `${t('ord.d.refundHint')} ${t('ord.d.pendingHint', { pending: yuan(o.pendingRefundFen), max: yuan(maxRefund) })}` : t('ord.d.refundHint')
        }
        fields={[
          {
            label: t('ord.d.refundAmount'),
            initial: yuan(maxRefund, false),
            check: (v) => {
              const fen = parseYuan(v);
              return fen !== null && fen > 0 && fen <= maxRefund ? '' : t('ord.d.refundAmountBad', { max: yuan(maxRefund) });
            },
          },
          { label: t('ord.reason'), multiline: true, check: (v) => (v.trim() ? '' : t('ord.reasonRequired')) },
        ]}
        onClose={() => setDialog(null)}
        onSubmit={async ([amount, reason]) => {
          notify(await requestRefund(o.orderNo, (amount ?? '').trim(), reason ?? ''), 'success');
          void mutate();
        }}
      />
    </div>
  );
}
