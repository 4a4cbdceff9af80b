import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '@/api/request';

/** Layout shared by the /setting pages. */
export const useSettingStyles = makeStyles({
  card: { padding: '16px', rowGap: '12px' },
  toolbar: { display: 'flex', columnGap: '8px', rowGap: '8px', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center' },
  group: { display: 'flex', columnGap: '8px', rowGap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  scroll: { overflowX: 'auto' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', columnGap: '2px', flexWrap: 'nowrap' },
  breakAll: { wordBreak: 'break-all' },
  tags: { display: 'flex', columnGap: '4px', rowGap: '4px', flexWrap: 'wrap' },
  form: { display: 'flex', flexDirection: 'column', rowGap: '12px' },
  grid2: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', columnGap: '12px', rowGap: '12px', alignItems: 'start' },
  fill: { minWidth: 0, width: '100%' },
  checks: { display: 'flex', flexWrap: 'wrap', columnGap: '8px' },
  treeCell: { display: 'flex', alignItems: 'center', columnGap: '4px' },
  twisty: { minWidth: '24px', width: '24px', height: '24px', padding: 0 },
  spacer: { display: 'inline-block', width: '24px' },
  note: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/** Whether a failed save was a version conflict (the list should be reloaded). */
export const isConflict = (err: unknown): boolean => err instanceof RequestError && Number(err.code) === 409;

/** A modal form: title, fields, Cancel and Save (disabled while saving). */
export function FormDialog({
  open,
  title,
  busy,
  onCancel,
  onSave,
  children,
  width = 520,
  testId,
}: {
  open: boolean;
  title: string;
  busy: boolean;
  onCancel: () => void;
  onSave: () => void;
  children: ReactNode;
  width?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onCancel()}>
      <DialogSurface style={{ maxWidth: `${width}px` }} data-testid={testId}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            onSave();
          }}
        >
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={styles.form}>{children}</DialogContent>
            <DialogActions>
              <Button type="button" onClick={onCancel}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" appearance="primary" disabled={busy} data-testid="dialog-save">
                {t('common.save')}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
