import { zonedClock, zonedTime } from '@/components/data/format';

/** Below this span a time axis reads to the second (minute labels would repeat). */
const SECONDS_BELOW = 15 * 60;

type TooltipParam = { value: [number, number | null]; marker: string; seriesName: string };

/**
 * An ECharts time axis read in the operator's time zone (every other
 * page's time), whatever the browser's zone: labels to the minute,
 * or to the second when the span is short, so no two ticks read alike.
 * Data points are `[unix ms, value]`.
 */
export function clockAxis(spanSecs: number) {
  const label = spanSecs < SECONDS_BELOW ? zonedClock : zonedTime;
  return {
    type: 'time' as const,
    axisLabel: { hideOverlap: true, formatter: (ms: number) => label(ms / 1000) },
  };
}

/** The axis tooltip of a clock axis: the time to the second, then each series' value. */
export function clockTooltip(unitOf: (series: string) => string = () => '') {
  return {
    trigger: 'axis' as const,
    formatter: (params: TooltipParam | TooltipParam[]) => {
      const list = Array.isArray(params) ? params : [params];
      if (!list.length) return '';
      const head = zonedClock(list[0]!.value[0] / 1000);
      const lines = list.filter((p) => p.value[1] != null).map((p) => `${p.marker}${p.seriesName} ${p.value[1]}${unitOf(p.seriesName)}`);
      return [head, ...lines].join('<br/>');
    },
  };
}
