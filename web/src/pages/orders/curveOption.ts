import type { EChartsCoreOption } from 'echarts/core';
import type { CurvePoint } from '@/api/orders';
import { zonedTime } from '@/components/data/format';

/** The chart of a meter curve: power (kW) and energy (kWh) on the left axis, SoC (%) on the right. */
export function curveOption(curve: CurvePoint[], labels: { power: string; energy: string; soc: string }): EChartsCoreOption {
  const x = curve.map((p) => zonedTime(p.ts));
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, data: [labels.power, labels.energy, labels.soc] },
    grid: { left: 48, right: 48, top: 56, bottom: 30 },
    xAxis: { type: 'category', data: x, boundaryGap: false },
    yAxis: [
      { type: 'value', name: 'kW / kWh' },
      { type: 'value', name: '%', min: 0, max: 100 },
    ],
    series: [
      { name: labels.power, type: 'line', smooth: true, showSymbol: false, data: curve.map((p) => Math.round(p.powerW / 100) / 10) },
      { name: labels.energy, type: 'line', showSymbol: false, areaStyle: { opacity: 0.15 }, data: curve.map((p) => Math.round(p.energyWh / 10) / 100) },
      { name: labels.soc, type: 'line', yAxisIndex: 1, showSymbol: false, lineStyle: { type: 'dashed' }, data: curve.map((p) => p.soc) },
    ],
  };
}
