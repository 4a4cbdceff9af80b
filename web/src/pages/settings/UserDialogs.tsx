import { Checkbox, Dropdown, Field, Input, Option, Switch } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageForField } from '@/api/request';
import { resetPassword, saveUser, type StaffUser } from '@/api/settings';
import { notify } from '@/utils/notify';
import { validateNewPassword, validateUser, type Errors, type UserForm } from './logic';
import { FormDialog, isConflict, useSettingStyles } from '@/components/settings/ui';

const NONE = '__none__';
const blank: UserForm = { username: '', email: '', roles: [], departmentId: '', enabled: true, password: '' };

/** Create / edit a staff account. `onClose(true)` after a save; `onClose(false, true)` after a conflict (reload). */
export function UserDialog({
  open,
  user,
  roleOptions,
  departmentOptions,
  onClose,
}: {
  open: boolean;
  user: StaffUser | null;
  roleOptions: string[];
  departmentOptions: { key: string; label: string }[];
  onClose: (saved: boolean, reload?: boolean, keepOpen?: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const styles = useSettingStyles();
  const [form, setForm] = useState<UserForm>(blank);
  const [errors, setErrors] = useState<Errors<keyof UserForm>>({});
  // The server's reason for refusing the password (its strength check), in the reader's language.
  const [passwordRefused, setPasswordRefused] = useState<string>();
  const [busy, setBusy] = useState(false);
  const creating = !user;
  useEffect(() => {
    if (!open) return;
    setForm(user ? { username: user.username, email: user.email ?? '', roles: [...user.roles], departmentId: user.departmentId ?? '', enabled: user.enabled, password: '' } : blank);
    setErrors({});
    setPasswordRefused(undefined);
  }, [open, user]);

  const save = async () => {
    const found = validateUser(form, creating);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const { msg } = await saveUser({
        username: form.username.trim(),
        email: form.email.trim(),
        roles: form.roles,
        departmentId: form.departmentId,
        enabled: form.enabled,
        ...(creating ? { password: form.password } : { version: user.version }),
      });
      notify(msg || t('set.common.saved'), 'success');
      onClose(true);
    } catch (err) {
      // A refused password is shown on its field; the request layer toasted
      // anything else. The dialog stays open; a conflict also reloads the list behind it.
      setPasswordRefused(messageForField(err, 'password', i18n.language.startsWith('zh')));
      if (isConflict(err)) onClose(false, true, true);
    } finally {
      setBusy(false);
    }
  };

  const deptLabel = departmentOptions.find((d) => d.key === form.departmentId)?.label ?? (form.departmentId || t('set.user.noDepartment'));
  const allRoles = [...new Set([...roleOptions, ...form.roles])];
  return (
    <FormDialog open={open} title={creating ? t('set.user.add') : t('set.user.edit')} busy={busy} onCancel={() => onClose(false)} onSave={() => void save()} testId="user-dialog">
      <Field label={t('set.user.username')} required validationMessage={errors.username ? t(errors.username) : undefined} hint={t('set.user.usernameHint')}>
        <Input name="username" value={form.username} disabled={!creating} onChange={(_, d) => setForm({ ...form, username: d.value })} />
      </Field>
      {creating && (
        <Field label={t('set.user.password')} required validationMessage={errors.password ? t(errors.password) : passwordRefused}>
          <Input
            name="password"
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(_, d) => {
              setForm({ ...form, password: d.value });
              setPasswordRefused(undefined);
            }}
          />
        </Field>
      )}
      <Field label={t('set.user.email')} validationMessage={errors.email ? t(errors.email) : undefined}>
        <Input name="email" type="email" value={form.email} onChange={(_, d) => setForm({ ...form, email: d.value })} />
      </Field>
      <Field label={t('set.user.roles')}>
        <div className={styles.checks} role="group" aria-label={t('set.user.roles')}>
          {allRoles.map((r) => (
            <Checkbox
              key={r}
              label={r}
              data-role={r}
              checked={form.roles.includes(r)}
              onChange={(_, d) => setForm({ ...form, roles: d.checked ? [...form.roles, r] : form.roles.filter((x) => x !== r) })}
            />
          ))}
        </div>
      </Field>
      <Field label={t('set.user.department')}>
        <Dropdown value={deptLabel} selectedOptions={[form.departmentId || NONE]} onOptionSelect={(_, d) => setForm({ ...form, departmentId: d.optionValue === NONE ? '' : (d.optionValue ?? '') })}>
          <Option value={NONE}>{t('set.user.noDepartment')}</Option>
          {departmentOptions.map((d) => (
            <Option key={d.key} value={d.key}>
              {d.label}
            </Option>
          ))}
        </Dropdown>
      </Field>
      <Switch label={form.enabled ? t('set.user.enabled') : t('set.user.disabled')} checked={form.enabled} onChange={(_, d) => setForm({ ...form, enabled: d.checked })} />
    </FormDialog>
  );
}

/** Sets a new password for another account (its sessions end). */
export function ResetPasswordDialog({ username, onClose }: { username: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Errors<'password' | 'repeat'>>({});
  const [passwordRefused, setPasswordRefused] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setPassword('');
    setRepeat('');
    setErrors({});
    setPasswordRefused(undefined);
  }, [username]);
  const save = async () => {
    const found = validateNewPassword(password, repeat);
    setErrors(found);
    if (Object.keys(found).length || !username) return;
    setBusy(true);
    try {
      notify((await resetPassword(username, password)) || t('set.common.saved'), 'success');
      onClose();
    } catch (err) {
      // A refused password is shown on its field; the request layer toasted anything else.
      setPasswordRefused(messageForField(err, 'password', i18n.language.startsWith('zh')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog open={!!username} title={t('set.user.resetTitle', { name: username ?? '' })} busy={busy} onCancel={onClose} onSave={() => void save()} width={440} testId="reset-dialog">
      <Field label={t('set.pwd.new')} required validationMessage={errors.password ? t(errors.password) : passwordRefused} hint={t('set.user.resetHint')}>
        <Input
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(_, d) => {
            setPassword(d.value);
            setPasswordRefused(undefined);
          }}
        />
      </Field>
      <Field label={t('set.pwd.repeat')} required validationMessage={errors.repeat ? t(errors.repeat) : undefined}>
        <Input name="repeatPassword" type="password" autoComplete="new-password" value={repeat} onChange={(_, d) => setRepeat(d.value)} />
      </Field>
    </FormDialog>
  );
}
