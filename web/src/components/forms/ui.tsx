import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Input, makeStyles, TableCell, TableRow, tokens } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '@/api/request';
import { confirm } from '@/components/Confirm';
import i18n from '@/i18n';
import { notify } from '@/utils/notify';

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

/** The "no data" row of a table that loaded empty. */
export function EmptyRow({ show, colSpan }: { show: boolean; colSpan: number }) {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  if (!show) return null;
  return (
    <TableRow>
      <TableCell colSpan={colSpan} className={styles.muted}>
        {t('common.noData')}
      </TableCell>
    </TableRow>
  );
}

/** A one-field search: Enter or the button hands over the trimmed text. */
export function SearchBox({ placeholder, onSearch, testId, initial = '' }: { placeholder: string; onSearch: (text: string) => void; testId?: string; initial?: string }) {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const [typed, setTyped] = useState(initial);
  return (
    <form
      className={styles.group}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(typed.trim());
      }}
    >
      <Input value={typed} onChange={(_, d) => setTyped(d.value)} placeholder={placeholder} contentBefore={<SearchRegular />} data-testid={testId} />
      <Button type="submit" appearance="primary">
        {t('set.common.search')}
      </Button>
    </form>
  );
}

/**
 * Asks `question`, then runs `remove` and toasts its message (or
 * "deleted"). A refusal (still in use, conflict ...) has already been
 * toasted by the request layer with the server's reason.
 */
export async function confirmDelete(question: string, remove: () => Promise<string | null | undefined | void>): Promise<'cancelled' | 'deleted' | 'refused'> {
  if (!(await confirm(question))) return 'cancelled';
  try {
    notify((await remove()) || i18n.t('set.common.deleted'), 'success');
    return 'deleted';
  } catch {
    return 'refused';
  }
}
