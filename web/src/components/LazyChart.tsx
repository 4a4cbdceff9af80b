import { Spinner } from '@fluentui/react-components';
import { lazy, Suspense } from 'react';
import type { EChartsCoreOption } from 'echarts/core';

// ECharts is a large chunk: it loads when the first chart is shown.
const EChart = lazy(() => import('./EChart').then((m) => ({ default: m.EChart })));

export function LazyChart({ option, className }: { option: EChartsCoreOption; className?: string }) {
  return (
    <Suspense fallback={<Spinner size="small" />}>
      <EChart option={option} className={className} />
    </Suspense>
  );
}
