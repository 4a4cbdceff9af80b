import { useEffect, useEffectEvent, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';
import { settingsStore } from '@/store/settings';

// Only the pieces the app draws (tree-shaken echarts/core).
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

/** Brand colour of the current Fluent theme, read from its CSS variable. */
function brandColours(el: HTMLElement): string[] {
  const style = getComputedStyle(el);
  const brand = style.getPropertyValue('--colorBrandBackground').trim();
  return brand ? [brand, '#f5a623', '#7d97b1', '#e85d75', '#50b7a3'] : [];
}

/** An ECharts canvas that follows its container size and the theme colour. */
export function EChart({ option, className }: { option: EChartsCoreOption; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const themeName = settingsStore.use((s) => s.theme.themeName);
  // Options are usually literals: re-initialise on content change, not identity.
  const optionKey = JSON.stringify(option);
  // An effect event: the effect reads the option when it runs; optionKey, not the option's identity, is what re-runs it.
  const draw = useEffectEvent((chart: echarts.ECharts, colours: string[]) =>
    chart.setOption(colours.length ? { color: colours, ...option } : option),
  );
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el);
    const colours = brandColours(el);
    draw(chart, colours);
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [optionKey, themeName]);
  return <div ref={ref} className={className} />;
}
