import { Toast, ToastTitle, Toaster, useId, useToastController } from '@fluentui/react-components';
import { useEffect } from 'react';
import { noticeQueue, takeNotices } from '@/utils/notify';

/** Shows toasts queued by notify() (request layer, guard, pages). */
export function Notifier() {
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  const pending = noticeQueue.use((s) => s.items.length);

  useEffect(() => {
    for (const n of takeNotices()) {
      dispatchToast(
        <Toast data-testid="toast" data-intent={n.intent}>
          <ToastTitle>{n.message}</ToastTitle>
        </Toast>,
        { intent: n.intent, timeout: n.timeout, position: 'top' },
      );
    }
  }, [pending, dispatchToast]);

  return <Toaster toasterId={toasterId} position="top" limit={5} />;
}
