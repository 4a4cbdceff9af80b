import type { EChartsCoreOption } from 'echarts/core';
import type { CurvePoint } from '../api/orders';
import { clockAxis, clockTooltip } from '@/components/clockAxis';

/** Whether the charger reported a state of charge at all (0 throughout means it did not). */
export const socReported = (curve: CurvePoint[]): boolean => curve.some((p) => p.soc > 0);

/**
 * The chart of a meter curve on a clock-time axis: power (kW) and energy
 * (kWh) on the left axis, SoC (%) on the right when the charger reported it.
 */
export function curveOption(curve: CurvePoint[], labels: { power: string; energy: string; soc: string }): EChartsCoreOption {
  const span = curve.length ? curve[curve.length - 1]!.ts - curve[0]!.ts : 0;
  const at = (p: CurvePoint) => p.ts * 1000;
  const soc = socReported(curve);
  return {
    tooltip: clockTooltip(),
    legend: { top: 0, data: [labels.power, labels.energy, ...(soc ? [labels.soc] : [])] },
    grid: { left: 48, right: 48, top: 56, bottom: 30 },
    xAxis: clockAxis(span),
    yAxis: [{ type: 'value', name: 'kW / kWh' }, ...(soc ? [{ type: 'value', name: '%', min: 0, max: 100 }] : [])],
    series: [
      { name: labels.power, type: 'line', smooth: true, showSymbol: false, data: curve.map((p) => [at(p), Math.round(p.powerW / 100) / 10]) },
      { name: labels.energy, type: 'line', showSymbol: false, areaStyle: { opacity: 0.15 }, data: curve.map((p) => [at(p), Math.round(p.energyWh / 10) / 100]) },
      ...(soc ? [{ name: labels.soc, type: 'line', yAxisIndex: 1, showSymbol: false, lineStyle: { type: 'dashed' }, data: curve.map((p) => [at(p), p.soc]) }] : []),
    ],
  };
}
