import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { PROGRESS_SPEED_MS, PROGRESS_TRICKLE_MS } from '@/config';
import { createStore } from '@/store/createStore';

/**
 * A thin top progress bar (nprogress-like): start() shows and trickles it,
 * done() fills it and fades it out. Nested starts are counted.
 */
const progressStore = createStore({ active: 0 });

export const startProgress = (): void => progressStore.set((s) => ({ active: s.active + 1 }));
export const doneProgress = (): void => progressStore.set((s) => ({ active: Math.max(0, s.active - 1) }));

/** Shows the bar for a fixed time (view reload, navigation to a cached view). */
export function pulseProgress(ms: number = PROGRESS_SPEED_MS): void {
  startProgress();
  setTimeout(doneProgress, ms);
}

const useStyles = makeStyles({
  bar: {
    position: 'fixed',
    top: 0,
    left: 0,
    height: '2px',
    zIndex: 100000,
    backgroundColor: tokens.colorBrandBackground,
    boxShadow: `0 0 8px ${tokens.colorBrandBackground}`,
    transitionProperty: 'width, opacity',
    transitionDuration: `${PROGRESS_SPEED_MS}ms`,
    transitionTimingFunction: 'ease',
    pointerEvents: 'none',
  },
});

export function ProgressBar({ enabled }: { enabled: boolean }) {
  const active = progressStore.use((s) => s.active > 0);
  const [width, setWidth] = useState(0);
  const [visible, setVisible] = useState(false);
  const styles = useStyles();

  useEffect(() => {
    if (active) {
      setVisible(true);
      setWidth(8);
      const timer = setInterval(() => setWidth((w) => (w < 90 ? w + (90 - w) * 0.15 : w)), PROGRESS_TRICKLE_MS);
      return () => clearInterval(timer);
    }
    setWidth(100);
    const timer = setTimeout(() => {
      setVisible(false);
      setWidth(0);
    }, PROGRESS_SPEED_MS);
    return () => clearTimeout(timer);
  }, [active]);

  if (!enabled || (!visible && !active)) return null;
  return <div className={styles.bar} role="progressbar" aria-hidden style={{ width: `${width}%`, opacity: active || width < 100 ? 1 : 0 }} />;
}
