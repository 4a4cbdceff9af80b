import { SW_NOTICE_MS, SW_RELOAD_MS } from '@/config';
import i18n from '@/i18n';
import { notify } from './notify';

/**
 * Registers the precaching worker (production builds only). When a new
 * build is found a notice shows for 8 s; once the new worker has taken over
 * the page reloads after 10 s.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    // The first install also changes the controller (clients.claim): that is not an update.
    const hadController = !!navigator.serviceWorker.controller;
    navigator.serviceWorker
      .register('./sw.js')
      .then((registration) => {
        registration.addEventListener('updatefound', () => {
          const worker = registration.installing;
          worker?.addEventListener('statechange', () => {
            // Only an update (a worker already controls the page), not the first install.
            if (worker.state === 'installed' && navigator.serviceWorker.controller) {
              notify(i18n.t('sw.found'), 'info', SW_NOTICE_MS);
              worker.postMessage('SKIP_WAITING');
            }
          });
        });
        let reloading = false;
        navigator.serviceWorker.addEventListener('controllerchange', () => {
          if (reloading || !hadController) return;
          reloading = true;
          notify(i18n.t('sw.updated', { seconds: SW_RELOAD_MS / 1000 }), 'success', SW_NOTICE_MS);
          setTimeout(() => window.location.reload(), SW_RELOAD_MS);
        });
      })
      .catch(() => {
        /* no worker (e.g. plain http on a LAN address): the app works without it */
      });
  });
}
