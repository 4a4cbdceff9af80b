import { Suspense, useEffect } from 'react';
import { Spinner, makeStyles } from '@fluentui/react-components';
import { classifyView, lazyView } from '@/pages/registry';
import { UnderConstruction } from '@/pages/UnderConstruction';
import { MissingView } from '@/pages/MissingView';
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
    <div className={styles.fallback}>
      <Spinner size="small" />
    </div>
  );
}

/** Renders the view of a route `component` key: built, being built, or missing. */
export function ViewHost({ viewKey, title }: { viewKey: string; title: string }) {
  const kind = classifyView(viewKey).kind;
  if (kind === 'planned') return <UnderConstruction title={title} viewKey={viewKey} />;
  const View = lazyView(viewKey);
  if (kind === 'missing' || !View) return <MissingView viewKey={viewKey} />;
  return (
    <Suspense fallback={<ViewLoading />}>
      <View />
    </Suspense>
  );
}
