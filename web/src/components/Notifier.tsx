import { Toast, ToastTitle, Toaster, useId, useToastController } from '@fluentui/react-components';
import { useEffect, useRef } from 'react';
import { errorClears, noticeQueue, takeNotices } from '@/utils/notify';

/** Shows toasts queued by notify() (request layer, guard, pages). */
export function Notifier() {
  const toasterId = useId('toaster');
  const { dispatchToast, dismissToast } = useToastController(toasterId);
  const pending = noticeQueue.use((s) => s.items.length);
  const clears = errorClears.use((s) => s.n);
  const errorIds = useRef<string[]>([]);

  useEffect(() => {
    for (const id of errorIds.current) dismissToast(id);
    errorIds.current = [];
  }, [clears, dismissToast]);

  useEffect(() => {
    for (const n of takeNotices()) {
      const toastId = `notice-${n.id}`;
      if (n.intent === 'error') errorIds.current.push(toastId);
      dispatchToast(
        <Toast data-testid="toast" data-intent={n.intent}>
          <ToastTitle>{n.message}</ToastTitle>
        </Toast>,
        { toastId, intent: n.intent, timeout: n.timeout, position: 'top' },
      );
    }
  }, [pending, dispatchToast]);

  return <Toaster toasterId={toasterId} position="top" limit={5} />;
}
