import { Suspense, useEffect, useState } from 'react';
import { Spinner, makeStyles } from '@fluentui/react-components';
import { classifyView, lazyView, retryView } from '@/pages/registry';
import { ChunkBoundary } from './ChunkBoundary';
import { UnderConstruction } from '@/pages/shell/UnderConstruction';
import { MissingView } from '@/pages/shell/MissingView';
import { doneProgress, startProgress } from '@/components/ProgressBar';

const useStyles = makeStyles({ fallback: { padding: '48px', display: 'flex', justifyContent: 'center' } });

/** Suspense fallback that keeps the progress bar running while a view chunk loads. */
function ViewLoading() {
  const styles = useStyles();
  useEffect(() => {
    startProgress();
    return doneProgress;
  }, []);
  return (
    <div className={styles.fallback} data-testid="view-loading">
      <Spinner size="small" />
    </div>
  );
}

/** Renders the view of a route `component` key: built, being built, or missing. */
export function ViewHost({ viewKey, title }: { viewKey: string; title: string }) {
  const [, setAttempt] = useState(0);
  const kind = classifyView(viewKey).kind;
  if (kind === 'planned') return <UnderConstruction title={title} viewKey={viewKey} />;
  const View = lazyView(viewKey);
  if (kind === 'missing' || !View) return <MissingView viewKey={viewKey} />;
  return (
    <ChunkBoundary
      onRetry={() => {
        retryView(viewKey);
        setAttempt((n) => n + 1);
      }}
    >
      <Suspense fallback={<ViewLoading />}>
        <View />
      </Suspense>
    </ChunkBoundary>
  );
}
