import { useEffect } from 'react';
import { RANDOM_THEME_MASK_MS } from '@/config';
import { settingsStore } from '@/store/settings';

/** Closes the random theme's mask 1 s after the render that shows it: timed
 * from the call instead, a slow first render of the new layout ate into
 * the second (half of it was seen on a busy machine). */
export function useThemeMaskTimer(themeMask: boolean): void {
  useEffect(() => {
    if (!themeMask) return;
    const timer = setTimeout(() => settingsStore.set({ themeMask: false }), RANDOM_THEME_MASK_MS);
    return () => clearTimeout(timer);
  }, [themeMask]);
}
