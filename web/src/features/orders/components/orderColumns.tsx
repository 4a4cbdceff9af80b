import { Button, Caption1, Link } from '@fluentui/react-components';
import type { TFunction } from 'i18next';
import type { OrderRow, PeriodRow, StationRow, Sums } from '../api/orders';
import { DataText } from '@/components/data/DataText';
import { duration, kwh, yuan, zonedDateTime } from '@/components/data/format';
import type { ListColumn } from '@/components/list/columns';
import { AnomalyBadges, OrderStatusBadge, PaymentBadge } from './badges';

/** Fen -> yuan as a number for a spreadsheet cell (exact for amounts below 2^53 fen). */
export const cellYuan = (fen: number) => Math.round(fen) / 100;
/** Wh -> kWh as a number. */
export const cellKwh = (wh: number) => Math.round(wh) / 1000;

/** What the order list's cells need from the page. */
export interface OrderCellContext {
  language: string;
  /** Classes of the page: muted second lines, the anomaly badges' row. */
  classes: { muted: string; badges: string };
  open: (r: OrderRow) => void;
  /** Offered on orders that can be closed by hand (stuck or abnormal), when the user may. */
  close?: (r: OrderRow) => void;
}

const closable = (r: OrderRow) => r.status === 'abnormal' || (r.status === 'charging' && r.anomalies.length > 0);

/**
 * The order list's columns, declared once: the table shows those with a
 * cell, the export (one row per order, the list's filter) those with an
 * excel value, each in this order.
 */
export function orderColumns(t: TFunction, ctx: OrderCellContext): ListColumn<OrderRow>[] {
  const { classes } = ctx;
  const money = (pick: (r: OrderRow) => number): ListColumn<OrderRow>['excel'] => ({ value: (r) => cellYuan(pick(r)), numFmt: '0.00' });
  return [
    {
      id: 'orderNo',
      header: t('ord.col.orderNo'),
      cell: (r) => (
        <Link onClick={() => ctx.open(r)} data-testid="order-link">
          {r.orderNo}
        </Link>
      ),
      excel: { value: (r) => r.orderNo, width: 26 },
    },
    {
      id: 'station',
      header: t('ord.col.station'),
      cell: (r) => (
        <>
          <DataText>{r.stationName || r.stationId}</DataText>
          <br />
          <Caption1 className={classes.muted} data-testid="order-charger">
            {chargerLabel(t, r)}
          </Caption1>
        </>
      ),
      excel: { value: (r) => r.stationName || r.stationId, width: 28 },
    },
    { id: 'pileCode', header: t('ord.col.pileCode'), excel: { value: (r) => r.pileCode, width: 20 } },
    { id: 'connectorNo', header: t('ord.col.connectorNo'), excel: { value: (r) => r.connectorNo ?? '', width: 8 } },
    {
      id: 'user',
      header: t('ord.col.user'),
      data: true,
      cell: (r) => (
        <>
          {r.userId}
          <br />
          <Caption1 className={classes.muted}>{r.plate}</Caption1>
        </>
      ),
      excel: { header: t('ord.filter.userId'), value: (r) => r.userId, width: 12 },
    },
    { id: 'plate', header: t('ord.filter.plate'), excel: { value: (r) => r.plate, width: 12 } },
    { id: 'start', header: t('ord.col.start'), sortable: true, cell: (r) => zonedDateTime(r.startTs), excel: { value: (r) => zonedDateTime(r.startTs), width: 17 } },
    { id: 'stop', header: t('ord.col.stop'), excel: { value: (r) => (r.stopTs ? zonedDateTime(r.stopTs) : ''), width: 17 } },
    { id: 'duration', header: t('ord.col.duration'), cell: (r) => duration((r.stopTs ?? Date.now() / 1000) - r.startTs, ctx.language) },
    { id: 'energy', header: t('ord.col.energy'), sortable: true, numeric: true, cell: (r) => kwh(r.energyWh), excel: { value: (r) => cellKwh(r.energyWh), numFmt: '0.000' } },
    { id: 'electricity', header: t('ord.col.electricity'), excel: money((r) => r.electricityFen) },
    { id: 'service', header: t('ord.col.service'), excel: money((r) => r.serviceFen) },
    { id: 'parking', header: t('ord.col.parking'), excel: money((r) => r.parkingFen) },
    { id: 'discount', header: t('ord.col.discount'), excel: money((r) => r.discountFen) },
    { id: 'amount', header: t('ord.col.amount'), sortable: true, numeric: true, cell: (r) => yuan(r.amountFen), excel: money((r) => r.amountFen) },
    { id: 'paid', header: t('ord.col.paid'), excel: money((r) => r.paidFen) },
    { id: 'refunded', header: t('ord.col.refunded'), numeric: true, cell: (r) => (r.refundedFen ? yuan(r.refundedFen) : ''), excel: money((r) => r.refundedFen) },
    { id: 'status', header: t('ord.col.status'), cell: (r) => <OrderStatusBadge status={r.status} />, excel: { value: (r) => t(`ord.status.${r.status}`) } },
    { id: 'payment', header: t('ord.col.payment'), cell: (r) => <PaymentBadge status={r.paymentStatus} />, excel: { value: (r) => t(`ord.payment.${r.paymentStatus}`) } },
    { id: 'method', header: t('ord.col.method'), excel: { value: (r) => (r.paymentMethod ? t(`ord.method.${r.paymentMethod}`) : '') } },
    { id: 'stopReason', header: t('ord.col.stopReason'), excel: { value: (r) => (r.stopReason ? t(`ord.stopReason.${r.stopReason}`) : '') } },
    {
      id: 'anomalies',
      header: t('ord.col.anomalies'),
      cell: (r) => (
        <div className={classes.badges}>
          <AnomalyBadges anomalies={r.anomalies} />
        </div>
      ),
    },
    {
      id: 'actions',
      header: t('ord.col.actions'),
      cell: (r) => (
        <>
          <Button size="small" appearance="transparent" onClick={() => ctx.open(r)}>
            {t('ord.detail')}
          </Button>
          {ctx.close && closable(r) && (
            <Button size="small" appearance="transparent" onClick={() => ctx.close?.(r)} data-testid="order-close">
              {t('ord.close')}
            </Button>
          )}
        </>
      ),
    },
  ];
}

/**
 * The columns of a finance table (by period or by station), declared once:
 * `first` names the row; the table shows the sums but the amount, the
 * export all of them.
 */
export function sumsColumns<T extends Sums>(t: TFunction, first: ListColumn<T>): ListColumn<T>[] {
  const money = (id: string, header: string, pick: (r: Sums) => number, inTable = true): ListColumn<T> => ({
    id,
    header,
    numeric: true,
    cell: inTable ? (r) => yuan(pick(r)) : undefined,
    excel: { value: (r) => cellYuan(pick(r)), numFmt: '0.00' },
  });
  return [
    first,
    { id: 'orders', header: t('fin.cards.orders'), numeric: true, cell: (r) => String(r.orders), excel: { value: (r) => r.orders } },
    { id: 'energy', header: t('fin.cards.energy'), numeric: true, cell: (r) => kwh(r.energyWh), excel: { value: (r) => cellKwh(r.energyWh), numFmt: '0.000' } },
    money('electricity', t('fin.cards.electricity'), (r) => r.electricityFen),
    money('service', t('fin.cards.service'), (r) => r.serviceFen),
    money('parking', t('fin.cards.parking'), (r) => r.parkingFen),
    money('amount', t('fin.cards.amount'), (r) => r.amountFen, false),
    money('paid', t('fin.cards.paid'), (r) => r.paidFen),
    money('refunds', t('fin.cards.refunds'), (r) => r.refundedFen),
    money('net', t('fin.cards.net'), (r) => r.netFen),
  ];
}

export const periodColumn = (t: TFunction): ListColumn<PeriodRow> => ({ id: 'period', header: t('fin.period'), cell: (r) => r.period, excel: { value: (r) => r.period, width: 14 } });
export const stationColumn = (t: TFunction): ListColumn<StationRow> => ({
  id: 'station',
  header: t('ord.col.station'),
  data: true,
  cell: (r) => r.stationName || r.stationId,
  excel: { value: (r) => r.stationName || r.stationId, width: 30 },
});

/** How staff read an order's charger: "INFYAC001606 · 1号枪" (pile code and connector number, never internal ids). */
export function chargerLabel(t: TFunction, r: Pick<OrderRow, 'pileCode' | 'connectorNo'>): string {
  if (!r.pileCode) return '—';
  return r.connectorNo ? t('ord.d.chargerLabel', { code: r.pileCode, no: r.connectorNo }) : r.pileCode;
}
