import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { createStore } from '@/store/createStore';

/**
 * Alerts and confirmations (title 温馨提示, labels 确定 / 取消 by
 * default). confirm() can be awaited from anywhere; <ConfirmHost> shows it.
 */
interface Pending {
  message: string;
  title?: string;
  alertOnly: boolean;
  resolve: (ok: boolean) => void;
}

const confirmStore = createStore<{ pending: Pending | null }>({ pending: null });

export function confirm(message: string, title?: string): Promise<boolean> {
  return new Promise((resolve) => confirmStore.set({ pending: { message, title, alertOnly: false, resolve } }));
}

export function alert(message: string, title?: string): Promise<boolean> {
  return new Promise((resolve) => confirmStore.set({ pending: { message, title, alertOnly: true, resolve } }));
}

export function ConfirmHost() {
  const { t } = useTranslation();
  const pending = confirmStore.use((s) => s.pending);
  const close = (ok: boolean) => {
    pending?.resolve(ok);
    confirmStore.set({ pending: null });
  };
  return (
    <Dialog open={!!pending} modalType="alert" onOpenChange={(_, d) => !d.open && close(false)}>
      <DialogSurface style={{ maxWidth: '420px' }} data-testid="confirm-dialog">
        <DialogBody>
          <DialogTitle>{pending?.title ?? t('common.alertTitle')}</DialogTitle>
          <DialogContent>{pending?.message}</DialogContent>
          <DialogActions>
            {!pending?.alertOnly && <Button onClick={() => close(false)}>{t('common.cancel')}</Button>}
            <Button appearance="primary" onClick={() => close(true)} data-testid="confirm-ok">
              {t('common.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
