import { Caption1, Checkbox, Field, Input, Textarea } from '@fluentui/react-components';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveRole, type Role } from '../api/settings';
import { notify } from '@/utils/notify';
import { togglePermission, validateRole, type Errors } from '../model/logic';
import { FormDialog, isConflict, useSettingStyles } from '@/components/forms/ui';

/** A permission's readable name ('read:system' -> 'Read system data'); unknown ones as they are. */
export const permissionLabel = (t: TFunction, perm: string): string => t(`set.perm.${perm.replace(/[^A-Za-z0-9]/g, '_')}`, { defaultValue: perm });

/** Create / edit / rename a role with its permission checkboxes. */
export function RoleDialog({ open, role, options, onClose }: { open: boolean; role: Role | null; options: string[]; onClose: (saved: boolean, reload?: boolean, keepOpen?: boolean) => void }) {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const [form, setForm] = useState({ role: '', description: '', permissions: [] as string[] });
  const [errors, setErrors] = useState<Errors<'role' | 'description'>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setForm(role ? { role: role.role, description: role.description ?? '', permissions: [...role.permissions] } : { role: '', description: '', permissions: [] });
    setErrors({});
  }, [open, role]);

  const save = async () => {
    const found = validateRole(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const name = form.role.trim();
      const msg = await saveRole({
        role: name,
        permissions: form.permissions,
        description: form.description.trim(),
        ...(role ? { version: role.version, ...(name !== role.role ? { oldRole: role.role } : {}) } : {}),
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

  const all = [...new Set([...options, ...form.permissions])];
  return (
    <FormDialog open={open} title={role ? t('set.role.edit') : t('set.role.add')} busy={busy} onCancel={() => onClose(false)} onSave={() => void save()} testId="role-dialog">
      <Field
        label={t('set.role.name')}
        required
        validationMessage={errors.role ? t(errors.role) : undefined}
        hint={role && role.userCount > 0 ? t('set.role.renameHint', { n: role.userCount }) : t('set.role.caseHint')}
      >
        <Input name="role" value={form.role} disabled={!!role && role.userCount > 0} onChange={(_, d) => setForm({ ...form, role: d.value })} />
      </Field>
      <Field label={t('set.role.permissions')}>
        <div className={styles.form} role="group" aria-label={t('set.role.permissions')}>
          {all.map((p) => (
            <Checkbox
              key={p}
              data-perm={p}
              checked={form.permissions.includes(p)}
              onChange={(_, d) => setForm({ ...form, permissions: togglePermission(form.permissions, p, !!d.checked, all) })}
              label={
                <span>
                  {permissionLabel(t, p)} <Caption1 className={styles.muted}>({p})</Caption1>
                </span>
              }
            />
          ))}
        </div>
      </Field>
      <Field label={t('set.role.description')} validationMessage={errors.description ? t(errors.description) : undefined}>
        <Textarea value={form.description} onChange={(_, d) => setForm({ ...form, description: d.value })} />
      </Field>
    </FormDialog>
  );
}
