import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, makeStyles, Option, Textarea } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { doEditTable, type TableItem } from '../api/demo';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({ form: { display: 'flex', flexDirection: 'column', rowGap: '12px' } });

export const STATUSES: TableItem['status'][] = ['published', 'draft', 'deleted'];

/** The dialog's fields (the simulated save reads the id, title and status). */
type ItemForm = Pick<TableItem, 'title'> & Partial<Pick<TableItem, 'id' | 'description' | 'status' | 'author'>>;

/** Add / edit dialog of the demo table; saves through /table/doEdit (a simulated save). */
export function EditItemDialog({ item, open, onClose }: { item: TableItem | null; open: boolean; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [form, setForm] = useState<ItemForm>({ title: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setForm(item ? { id: item.id, title: item.title, description: item.description, status: item.status, author: item.author } : { title: '', status: 'draft' });
      setError('');
    }
  }, [open, item]);
  const save = async () => {
    if (!form.title.trim()) {
      setError(t('dm.table.titleRequired'));
      return;
    }
    setBusy(true);
    try {
      notify(await doEditTable({ ...form, title: form.title.trim() }), 'success');
      onClose(true);
    } catch {
      /* the request layer showed the message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose(false)}>
      <DialogSurface style={{ maxWidth: '520px' }}>
        <DialogBody>
          <DialogTitle>{item ? t('dm.table.edit') : t('dm.table.add')}</DialogTitle>
          <DialogContent className={styles.form}>
            <Field label={t('dm.table.title')} required validationMessage={error || undefined}>
              <Input value={form.title} onChange={(_, d) => setForm({ ...form, title: d.value })} data-testid="edit-title" />
            </Field>
            <Field label={t('dm.table.author')}>
              <Input value={form.author ?? ''} onChange={(_, d) => setForm({ ...form, author: d.value })} />
            </Field>
            <Field label={t('dm.table.status')}>
              <Dropdown
                value={t(`dm.status.${form.status ?? 'draft'}`)}
                selectedOptions={[form.status ?? 'draft']}
                onOptionSelect={(_, d) => setForm({ ...form, status: d.optionValue as TableItem['status'] })}
              >
                {STATUSES.map((s) => (
                  <Option key={s} value={s}>
                    {t(`dm.status.${s}`)}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label={t('dm.table.description')}>
              <Textarea value={form.description ?? ''} onChange={(_, d) => setForm({ ...form, description: d.value })} />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => onClose(false)}>{t('common.cancel')}</Button>
            <Button appearance="primary" disabled={busy} onClick={() => void save()}>
              {t('common.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
