import { useEffect, useEffectEvent, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';
import { settingsStore } from '@/store/settings';

// Only the pieces the app draws (tree-shaken echarts/core).
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer, SVGRenderer]);

/** Brand colour of the current Fluent theme, read from its CSS variable. */
function brandColours(el: HTMLElement): string[] {
  const style = getComputedStyle(el);
  const brand = style.getPropertyValue('--colorBrandBackground').trim();
  return brand ? [brand, '#f5a623', '#7d97b1', '#e85d75', '#50b7a3'] : [];
}

export type ChartRenderer = 'canvas' | 'svg';

/**
 * An ECharts chart that follows its container size and the theme colour.
 * A new option redraws the same chart (a live page moves its lines instead
 * of starting over); `svg` draws text as text (small charts whose axis
 * labels people read, and tests read too).
 */
export function EChart({ option, className, renderer = 'canvas' }: { option: EChartsCoreOption; className?: string; renderer?: ChartRenderer }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const themeName = settingsStore.use((s) => s.theme.themeName);
  // Options are usually literals: redraw on content change, not identity.
  const optionKey = JSON.stringify(option);
  // An effect event: the effect reads the option when it runs; optionKey, not the option's identity, is what re-runs it.
  const draw = useEffectEvent((c: echarts.ECharts, el: HTMLElement) => {
    const colours = brandColours(el);
    // notMerge: a series that is gone from the option leaves the chart.
    c.setOption(colours.length ? { color: colours, ...option } : option, { notMerge: true });
  });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const c = echarts.init(el, undefined, { renderer });
    chart.current = c;
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.current = null;
      c.dispose();
    };
  }, [themeName, renderer]);
  useEffect(() => {
    if (chart.current && ref.current) draw(chart.current, ref.current);
  }, [optionKey, themeName, renderer]);
  return <div ref={ref} className={className} />;
}
