import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { excelColumns, tableColumns } from '@/components/list/columns';
import { orderColumns, periodColumn, sumsColumns } from '../components/orderColumns';
import { filterParams, type Sums } from '../api/orders';
import { defaultFilter, exportFileName, filterKey, normaliseFilter } from './filterModel';
import { addSums, trendOption } from './financeModel';
import { curveOption } from './curveOption';

const sums = (over: Partial<Sums>): Sums => ({ orders: 0, energyWh: 0, electricityFen: 0, serviceFen: 0, parkingFen: 0, discountFen: 0, amountFen: 0, paidFen: 0, refundedFen: 0, writtenOffFen: 0, netFen: 0, ...over });

describe('order filters', () => {
  it('defaults to the last 30 China-local days', () => {
    const f = defaultFilter(1_735_660_800); // 2025-01-01 in China
    expect(f.to).toBe('2025-01-01');
    expect(f.from).toBe('2024-12-03');
  });
  it('sends only what is set, tidied', () => {
    const f = normaliseFilter({ ...defaultFilter(1_735_660_800), orderNo: ' cd2025 ', plate: ' 粤bd12345 ', status: 'finished' });
    expect(filterParams(f)).toEqual({ from: '2024-12-03', to: '2025-01-01', orderNo: 'CD2025', plate: '粤BD12345', status: 'finished' });
    expect(filterKey(f)).toBe(filterKey({ ...f }));
    expect(filterKey(f)).not.toBe(filterKey({ ...f, status: 'abnormal' }));
  });
});

describe('finance and curve charts', () => {
  it('adds sums field by field', () => {
    expect(addSums([sums({ orders: 1, amountFen: 101 }), sums({ orders: 2, amountFen: 202, netFen: 5 })])).toEqual(sums({ orders: 3, amountFen: 303, netFen: 5 }));
  });
  it('charts yuan and kWh from integers', () => {
    const t = ((k: string) => k) as never;
    const o = trendOption([{ label: '06-01', sums: sums({ netFen: 12345, refundedFen: 100, energyWh: 5600 }) }], t) as { series: { data: number[] }[] };
    expect(o.series[0]!.data).toEqual([123.45]);
    expect(o.series[1]!.data).toEqual([1]);
    expect(o.series[2]!.data).toEqual([6]);
    const c = curveOption([{ ts: 1_735_660_800, powerW: 60_000, energyWh: 0, soc: 20 }, { ts: 1_735_661_100, powerW: 59_500, energyWh: 4_980, soc: 27 }], { power: 'p', energy: 'e', soc: 's' }) as {
      xAxis: { type: string };
      series: { data: [number, number][] }[];
    };
    expect(c.xAxis.type).toBe('time');
    expect(c.series[0]!.data).toEqual([[1_735_660_800_000, 60], [1_735_661_100_000, 59.5]]);
    expect(c.series[1]!.data.map(([, v]) => v)).toEqual([0, 4.98]);
    expect(c.series[2]!.data.map(([, v]) => v)).toEqual([20, 27]);
  });

  it('leaves the SoC out when the charger never reported it', () => {
    const c = curveOption([{ ts: 1_735_660_800, powerW: 0, energyWh: 0, soc: 0 }, { ts: 1_735_660_860, powerW: 7000, energyWh: 100, soc: 0 }], { power: 'p', energy: 'e', soc: 's' }) as {
      series: unknown[];
      yAxis: unknown[];
    };
    expect(c.series).toHaveLength(2);
    expect(c.yAxis).toHaveLength(1);
  });

  // Drawn by ECharts itself (server-side SVG), so the labels are the ones people see.
  const xLabels = async (option: object): Promise<string[]> => {
    const echarts = await import('echarts/core');
    const { LineChart } = await import('echarts/charts');
    const { GridComponent, LegendComponent, TooltipComponent } = await import('echarts/components');
    const { SVGRenderer } = await import('echarts/renderers');
    echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);
    const chart = echarts.init(null, undefined, { renderer: 'svg', ssr: true, width: 600, height: 300 });
    chart.setOption({ ...option, animation: false });
    const svg = chart.renderToSVGString();
    chart.dispose();
    return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map(([, text]) => text!).filter((text) => /^\d\d:\d\d(:\d\d)?$/.test(text));
  };

  it('labels the meter curve in China clock time, no two ticks alike, over a few minutes or a few hours', async () => {
    const labels = { power: 'p', energy: 'e', soc: 's' };
    // Meter values every 10 s for two minutes: minute labels would repeat.
    const short = Array.from({ length: 13 }, (_, i) => ({ ts: 1_735_660_800 + i * 10, powerW: 7000, energyWh: i * 20, soc: 0 }));
    const shortLabels = await xLabels(curveOption(short, labels));
    expect(shortLabels.length).toBeGreaterThan(2);
    expect(new Set(shortLabels).size).toBe(shortLabels.length);
    expect(shortLabels[0]).toMatch(/^00:0[0-2]:\d\d$/);
    // Every 5 minutes over three hours.
    const long = Array.from({ length: 37 }, (_, i) => ({ ts: 1_735_660_800 + i * 300, powerW: 60_000, energyWh: i * 5000, soc: 20 + i }));
    const longLabels = await xLabels(curveOption(long, labels));
    expect(longLabels.length).toBeGreaterThan(2);
    expect(new Set(longLabels).size).toBe(longLabels.length);
    expect(longLabels.every((l) => /^\d\d:\d\d$/.test(l))).toBe(true);
  });
});

describe('the export file name', () => {
  it('carries every filter set, as people read it, then the dates', () => {
    const f = { ...defaultFilter(1_735_660_800), stationId: 'st-0015', status: 'abnormal' as const };
    expect(exportFileName(f, { station: '中关村充电站', status: '异常' })).toBe('orders-中关村充电站-异常-2024-12-03-2025-01-01.xlsx');
    expect(exportFileName({ ...f, stationId: '', status: '', paymentStatus: 'paid', plate: '粤B 12345' }, { payment: 'paid' })).toBe('orders-paid-粤B_12345-2024-12-03-2025-01-01.xlsx');
    expect(exportFileName(defaultFilter(1_735_660_800), {})).toBe('orders-2024-12-03-2025-01-01.xlsx');
    // Characters a file system refuses never reach the name.
    expect(exportFileName({ ...f, status: '' }, { station: 'A/B:C*?' })).toBe('orders-A_B_C_-2024-12-03-2025-01-01.xlsx');
  });
});

describe('what an order owes (the payment section)', async () => {
  const { owedFen } = await import('../components/PaymentSection');
  const order = (over: Record<string, unknown>) => ({ status: 'finished', paymentStatus: 'unpaid', amountFen: 7220, paidFen: 0, settlement: null, ...over }) as never;
  it('is amount - paid for a finished unpaid order nobody settled', () => {
    expect(owedFen(order({}))).toBe(7220);
  });
  it('is nothing once paid, written off, settled, free or still charging', () => {
    expect(owedFen(order({ paymentStatus: 'paid', paidFen: 7220 }))).toBe(0);
    expect(owedFen(order({ paymentStatus: 'writtenOff' }))).toBe(0);
    expect(owedFen(order({ settlement: { kind: 'writeOff' } }))).toBe(0);
    expect(owedFen(order({ amountFen: 0 }))).toBe(0);
    expect(owedFen(order({ status: 'charging' }))).toBe(0);
  });
});

describe('order list sorting', () => {
  it('cycles a column: start toggles, amount and energy go high, low, then back to newest', async () => {
    const { nextSort, columnDirection } = await import('./filterModel');
    expect(nextSort('newest', 'start')).toBe('oldest');
    expect(nextSort('oldest', 'start')).toBe('newest');
    expect(nextSort('amountAsc', 'start')).toBe('newest');
    expect(nextSort('newest', 'amount')).toBe('amountDesc');
    expect(nextSort('amountDesc', 'amount')).toBe('amountAsc');
    expect(nextSort('amountAsc', 'amount')).toBe('newest');
    expect(nextSort('amountDesc', 'energy')).toBe('energyDesc');
    expect(columnDirection('energyAsc', 'energy')).toBe('ascending');
    expect(columnDirection('energyAsc', 'amount')).toBeUndefined();
    expect(columnDirection('newest', 'start')).toBe('descending');
  });

  it('knows when a filter is more than the date range', async () => {
    const { defaultFilter, filtersBeyondRange } = await import('./filterModel');
    expect(filtersBeyondRange(defaultFilter())).toBe(false);
    expect(filtersBeyondRange({ ...defaultFilter(), status: 'finished' })).toBe(true);
  });
});

describe('order columns', () => {
  const t = ((k: string) => k) as unknown as TFunction;
  const columns = orderColumns(t, { language: 'zh', classes: { muted: '', badges: '' }, open: () => {} });
  it('the export keeps its columns, in order', () => {
    expect(excelColumns(columns).map((c) => c.header)).toEqual([
      'ord.col.orderNo', 'ord.col.station', 'ord.col.pileCode', 'ord.col.connectorNo', 'ord.filter.userId', 'ord.filter.plate', 'ord.col.start', 'ord.col.stop',
      'ord.col.energy', 'ord.col.electricity', 'ord.col.service', 'ord.col.parking', 'ord.col.discount', 'ord.col.amount', 'ord.col.paid', 'ord.col.refunded',
      'ord.col.status', 'ord.col.payment', 'ord.col.method', 'ord.col.stopReason',
    ]);
  });
  it('the table keeps its columns, in order', () => {
    expect(tableColumns(columns).map((c) => c.id)).toEqual(['orderNo', 'station', 'user', 'start', 'duration', 'energy', 'amount', 'refunded', 'status', 'payment', 'anomalies', 'actions']);
    expect(columns.filter((c) => c.sortable).map((c) => c.id)).toEqual(['start', 'energy', 'amount']);
  });
});

describe('finance table columns', () => {
  const t = ((k: string) => k) as unknown as TFunction;
  const columns = sumsColumns(t, periodColumn(t));
  it('the table shows the sums but the amount; the export all of them, in order', () => {
    expect(tableColumns(columns).map((c) => c.id)).toEqual(['period', 'orders', 'energy', 'electricity', 'service', 'parking', 'paid', 'refunds', 'net']);
    const ex = excelColumns(columns);
    expect(ex.map((c) => c.header)).toEqual(['fin.period', 'fin.cards.orders', 'fin.cards.energy', 'fin.cards.electricity', 'fin.cards.service', 'fin.cards.parking', 'fin.cards.amount', 'fin.cards.paid', 'fin.cards.refunds', 'fin.cards.net']);
    const row = { ...sums({ orders: 2, energyWh: 12345, amountFen: 1234, netFen: 999 }), period: '2025-01' };
    expect(ex.map((c) => c.value(row))).toEqual(['2025-01', 2, 12.345, 0, 0, 0, 12.34, 0, 0, 9.99]);
  });
});
