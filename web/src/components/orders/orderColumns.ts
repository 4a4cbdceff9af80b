import type { TFunction } from 'i18next';
import type { OrderRow, PeriodRow, StationRow, Sums } from '@/api/orders';
import type { ExcelColumn } from '@/components/data/excel';
import { chinaDateTime } from '@/components/data/format';

/** Fen -> yuan as a number for a spreadsheet cell (exact for amounts below 2^53 fen). */
export const cellYuan = (fen: number) => Math.round(fen) / 100;
/** Wh -> kWh as a number. */
export const cellKwh = (wh: number) => Math.round(wh) / 1000;

/** The columns of the order export: one row per order, the list's filter. */
export function orderExcelColumns(t: TFunction): ExcelColumn<OrderRow>[] {
  return [
    { header: t('ord.col.orderNo'), value: (r) => r.orderNo, width: 26 },
    { header: t('ord.col.station'), value: (r) => r.stationName || r.stationId, width: 28 },
    { header: t('ord.col.pileCode'), value: (r) => r.pileCode, width: 20 },
    { header: t('ord.col.connectorNo'), value: (r) => r.connectorNo ?? '', width: 8 },
    { header: t('ord.filter.userId'), value: (r) => r.userId, width: 12 },
    { header: t('ord.filter.plate'), value: (r) => r.plate, width: 12 },
    { header: t('ord.col.start'), value: (r) => chinaDateTime(r.startTs), width: 17 },
    { header: t('ord.col.stop'), value: (r) => (r.stopTs ? chinaDateTime(r.stopTs) : ''), width: 17 },
    { header: t('ord.col.energy'), value: (r) => cellKwh(r.energyWh), numFmt: '0.000' },
    { header: t('ord.col.electricity'), value: (r) => cellYuan(r.electricityFen), numFmt: '0.00' },
    { header: t('ord.col.service'), value: (r) => cellYuan(r.serviceFen), numFmt: '0.00' },
    { header: t('ord.col.parking'), value: (r) => cellYuan(r.parkingFen), numFmt: '0.00' },
    { header: t('ord.col.discount'), value: (r) => cellYuan(r.discountFen), numFmt: '0.00' },
    { header: t('ord.col.amount'), value: (r) => cellYuan(r.amountFen), numFmt: '0.00' },
    { header: t('ord.col.paid'), value: (r) => cellYuan(r.paidFen), numFmt: '0.00' },
    { header: t('ord.col.refunded'), value: (r) => cellYuan(r.refundedFen), numFmt: '0.00' },
    { header: t('ord.col.status'), value: (r) => t(`ord.status.${r.status}`) },
    { header: t('ord.col.payment'), value: (r) => t(`ord.payment.${r.paymentStatus}`) },
    { header: t('ord.col.method'), value: (r) => (r.paymentMethod ? t(`ord.method.${r.paymentMethod}`) : '') },
    { header: t('ord.col.stopReason'), value: (r) => (r.stopReason ? t(`ord.stopReason.${r.stopReason}`) : '') },
  ];
}

/** Columns of a finance table (by period or by station). */
export function sumsExcelColumns<T extends Sums>(t: TFunction, first: ExcelColumn<T>): ExcelColumn<T>[] {
  return [
    first,
    { header: t('fin.cards.orders'), value: (r) => r.orders },
    { header: t('fin.cards.energy'), value: (r) => cellKwh(r.energyWh), numFmt: '0.000' },
    { header: t('fin.cards.electricity'), value: (r) => cellYuan(r.electricityFen), numFmt: '0.00' },
    { header: t('fin.cards.service'), value: (r) => cellYuan(r.serviceFen), numFmt: '0.00' },
    { header: t('fin.cards.parking'), value: (r) => cellYuan(r.parkingFen), numFmt: '0.00' },
    { header: t('fin.cards.amount'), value: (r) => cellYuan(r.amountFen), numFmt: '0.00' },
    { header: t('fin.cards.paid'), value: (r) => cellYuan(r.paidFen), numFmt: '0.00' },
    { header: t('fin.cards.refunds'), value: (r) => cellYuan(r.refundedFen), numFmt: '0.00' },
    { header: t('fin.cards.net'), value: (r) => cellYuan(r.netFen), numFmt: '0.00' },
  ];
}

export const periodColumn = (t: TFunction): ExcelColumn<PeriodRow> => ({ header: t('fin.period'), value: (r) => r.period, width: 14 });
export const stationColumn = (t: TFunction): ExcelColumn<StationRow> => ({ header: t('ord.col.station'), value: (r) => r.stationName || r.stationId, width: 30 });

/** How staff read an order's charger: "INFYAC001606 · 1号枪" (pile code and connector number, never internal ids). */
export function chargerLabel(t: TFunction, r: Pick<OrderRow, 'pileCode' | 'connectorNo'>): string {
  if (!r.pileCode) return '—';
  return r.connectorNo ? t('ord.d.chargerLabel', { code: r.pileCode, no: r.connectorNo }) : r.pileCode;
}
