import { ERROR_LOG_ENVS } from '@/config';
import { addErrorLog } from '@/store/errorLog';

/**
 * Global client error handler: active when the error-log setting
 * includes the current environment; logs to the console and records the
 * error with the current URL in the error-log store.
 */
export function installErrorHandler(): void {
  const env = import.meta.env.PROD ? 'production' : 'development';
  if (!ERROR_LOG_ENVS.includes(env)) return;
  window.addEventListener('error', (event) => {
    console.error(event.error ?? event.message);
    addErrorLog(event.error ?? new Error(String(event.message)));
  });
  window.addEventListener('unhandledrejection', (event) => {
    // Rejected API calls were already shown to the user as toasts.
    if ((event.reason as { name?: string } | undefined)?.name === 'RequestError') return;
    console.error(event.reason);
    addErrorLog(event.reason);
  });
}
