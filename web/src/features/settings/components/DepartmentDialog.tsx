import { Dropdown, Field, Input, Option } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveDepartment, type Department } from '../api/settings';
import { notify } from '@/utils/notify';
import { parentOptions, validateDepartment, type DepartmentForm, type Errors } from '../model/logic';
import { FormDialog, isConflict } from '@/components/forms/ui';

const TOP = '__top__';

/** Create / edit a department; the parent list leaves out the department itself and its subtree (no cycles). */
export function DepartmentDialog({
  open,
  tree,
  department,
  parentId,
  onClose,
}: {
  open: boolean;
  tree: Department[];
  /** The department edited, or null to create. */
  department: Department | null;
  /** The parent preselected when creating. */
  parentId: string;
  onClose: (saved: boolean, reload?: boolean, keepOpen?: boolean) => void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<DepartmentForm>({ name: '', parentId: '', order: '0' });
  const [errors, setErrors] = useState<Errors<keyof DepartmentForm>>({});
  const [busy, setBusy] = useState(false);
  const options = useMemo(() => parentOptions(tree, (d) => d.id, (d) => d.name, department?.id), [tree, department]);
  useEffect(() => {
    if (!open) return;
    setForm(department ? { name: department.name, parentId: department.parentId ?? '', order: String(department.order ?? 0) } : { name: '', parentId, order: '0' });
    setErrors({});
  }, [open, department, parentId]);

  const save = async () => {
    const found = validateDepartment(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const msg = await saveDepartment({
        ...(department ? { id: department.id, version: department.version } : {}),
        parentId: form.parentId,
        name: form.name.trim(),
        order: Number(form.order.trim()),
      });
      notify(msg || t('set.common.saved'), 'success');
      onClose(true);
    } catch (err) {
      // The dialog stays open with the server's message; a conflict also reloads the list behind it.
      if (isConflict(err)) onClose(false, true, true);
    } finally {
      setBusy(false);
    }
  };

  const parentLabel = form.parentId ? (options.find((o) => o.key === form.parentId)?.label ?? form.parentId) : t('set.dept.top');
  return (
    <FormDialog open={open} title={department ? t('set.dept.edit') : t('set.dept.add')} busy={busy} onCancel={() => onClose(false)} onSave={() => void save()} testId="dept-dialog">
      <Field label={t('set.dept.name')} required validationMessage={errors.name ? t(errors.name) : undefined}>
        <Input name="name" value={form.name} onChange={(_, d) => setForm({ ...form, name: d.value })} />
      </Field>
      <Field label={t('set.dept.parent')} hint={department ? t('set.dept.parentHint') : undefined}>
        <Dropdown value={parentLabel} selectedOptions={[form.parentId || TOP]} onOptionSelect={(_, d) => setForm({ ...form, parentId: d.optionValue === TOP ? '' : (d.optionValue ?? '') })}>
          <Option value={TOP}>{t('set.dept.top')}</Option>
          {options.map((o) => (
            <Option key={o.key} value={o.key} text={o.label}>
              <span style={{ paddingLeft: `${o.depth * 12}px` }}>{o.label}</span>
            </Option>
          ))}
        </Dropdown>
      </Field>
      <Field label={t('set.dept.order')} required validationMessage={errors.order ? t(errors.order) : undefined} hint={t('set.dept.orderHint')}>
        <Input name="order" type="number" step={1} value={form.order} onChange={(_, d) => setForm({ ...form, order: d.value })} />
      </Field>
    </FormDialog>
  );
}
