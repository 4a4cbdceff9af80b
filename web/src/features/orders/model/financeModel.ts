import type { EChartsCoreOption } from 'echarts/core';
import type { TFunction } from 'i18next';
import type { Sums } from '../api/orders';

/** Yuan as a chart value (2 decimals). */
const y = (fen: number) => Math.round(fen) / 100;

/** Revenue trend: net and refunds as bars (yuan), energy as a line (kWh, right axis). */
export function trendOption(rows: { label: string; sums: Sums }[], t: TFunction): EChartsCoreOption {
  const net = t('fin.cards.net');
  const refunds = t('fin.cards.refunds');
  const energy = t('fin.cards.energy');
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, data: [net, refunds, energy] },
    grid: { left: 56, right: 56, top: 56, bottom: 30 },
    xAxis: { type: 'category', data: rows.map((r) => r.label) },
    yAxis: [
      { type: 'value', name: '¥' },
      { type: 'value', name: 'kWh' },
    ],
    series: [
      { name: net, type: 'bar', stack: 'money', data: rows.map((r) => y(r.sums.netFen)) },
      { name: refunds, type: 'bar', stack: 'money', data: rows.map((r) => y(r.sums.refundedFen)) },
      { name: energy, type: 'line', yAxisIndex: 1, smooth: true, showSymbol: false, data: rows.map((r) => Math.round(r.sums.energyWh / 1000)) },
    ],
  };
}

/** Adds up rows of sums (for a client-side check that a table's rows equal its total). */
export function addSums(rows: Sums[]): Sums {
  const out: Sums = { orders: 0, energyWh: 0, electricityFen: 0, serviceFen: 0, parkingFen: 0, discountFen: 0, amountFen: 0, paidFen: 0, refundedFen: 0, writtenOffFen: 0, netFen: 0 };
  for (const r of rows) {
    for (const k of Object.keys(out) as (keyof Sums)[]) out[k] += r[k];
  }
  return out;
}
