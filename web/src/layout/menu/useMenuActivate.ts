import { useLocation, useNavigate } from 'react-router';
import type { AppRoute } from '@/router/types';
import { setCollapse, settingsStore } from '@/store/settings';
import { reloadTab, tabsStore } from '@/store/tabs';
import { pulseProgress } from '@/components/ProgressBar';
import { RELOAD_PROGRESS_MS } from '@/config';
import { menuAction } from './menuModel';

/**
 * Reloads the current view (refresh icon, clicking the current menu or tab).
 * `fullPath` is pathname + search: per-instance tabs (dynamicNewTab) share a
 * pathname and differ only by their query, so the exact location decides.
 */
export function reloadCurrentView(fullPath: string): void {
  const tabs = tabsStore.get().tabs;
  const pathname = fullPath.split('?')[0];
  const tab = tabs.find((t) => t.fullPath === fullPath) ?? tabs.find((t) => t.fullPath.split('?')[0] === pathname);
  if (tab) reloadTab(tab.path);
  if (settingsStore.get().theme.showProgressBar) pulseProgress(RELOAD_PROGRESS_MS);
}

/** What clicking a menu item does, bound to the router. */
export function useMenuActivate(): (route: AppRoute) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return (route) => {
    const action = menuAction(route, location.pathname);
    switch (action.kind) {
      case 'open-window':
        window.open(action.url, '_blank', 'noopener');
        break;
      case 'location':
        window.location.href = action.url;
        break;
      case 'reload':
        reloadCurrentView(location.pathname + location.search);
        break;
      case 'navigate':
        navigate(action.path);
        if (settingsStore.get().device === 'mobile') setCollapse(true);
        break;
    }
  };
}
