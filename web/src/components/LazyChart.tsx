import { Spinner } from '@fluentui/react-components';
import { lazy, Suspense } from 'react';
import type { EChartsCoreOption } from 'echarts/core';
import type { ChartRenderer } from './EChart';

// ECharts is a large chunk: it loads when the first chart is shown.
const EChart = lazy(() => import('./EChart').then((m) => ({ default: m.EChart })));

export function LazyChart({ option, className, renderer }: { option: EChartsCoreOption; className?: string; renderer?: ChartRenderer }) {
  return (
    <Suspense fallback={<Spinner size="small" />}>
      <EChart option={option} className={className} renderer={renderer} />
    </Suspense>
  );
}
