import { Checkbox, Dropdown, Field, Input, Option, Switch } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldProblems, RequestError } from '@/api/request';
import { resetPassword, saveUser, type StaffUser } from '../api/settings';
import { clearErrorToasts, notify } from '@/utils/notify';
import { validateNewPassword, validateUser, type Errors, type UserForm } from '../model/logic';
import { FormDialog, isConflict, useSettingStyles } from '@/components/forms/ui';

const NONE = '__none__';

/**
 * The server's words for the fields a 400 names (`data.fields`), in the
 * reader's language, keyed by the server's field name; empty for any other
 * failure. What a form has no field for is toasted by the caller.
 */
export function serverFieldWords(err: unknown, lang: string): Record<string, string> {
  if (!(err instanceof RequestError) || Number(err.code) !== 400) return {};
  const zh = lang.startsWith('zh');
  return Object.fromEntries(fieldProblems(err.body).map((p) => [p.field, zh ? p.zh : p.en]));
}

/** Toasts the words of the fields a form does not show. */
function toastUnshown(words: Record<string, string>, shown: string[], lang: string) {
  const rest = Object.entries(words).filter(([k]) => !shown.includes(k)).map(([, w]) => w);
  if (rest.length) notify(rest.join(lang.startsWith('zh') ? '；' : '; '), 'error');
}
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
  // The server's refusal of a field (e.g. a common password), in its own words.
  const [server, setServer] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const creating = !user;
  useEffect(() => {
    if (!open) return;
    setForm(user ? { username: user.username, email: user.email ?? '', roles: [...user.roles], departmentId: user.departmentId ?? '', enabled: user.enabled, password: '' } : blank);
    setErrors({});
    setServer({});
  }, [open, user]);

  const save = async () => {
    const found = validateUser(form, creating);
    setErrors(found);
    setServer({});
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const { msg } = await saveUser(
        {
          username: form.username.trim(),
          email: form.email.trim(),
          roles: form.roles,
          departmentId: form.departmentId,
          enabled: form.enabled,
          ...(creating ? { password: form.password } : { version: user.version }),
        },
        { fieldErrors: true },
      );
      clearErrorToasts();
      notify(msg || t('set.common.saved'), 'success');
      onClose(true);
    } catch (err) {
      // A refusal naming fields goes beside them; other failures were toasted by the request layer.
      const words = serverFieldWords(err, i18n.language);
      setServer(words);
      toastUnshown(words, ['username', 'password', 'email'], i18n.language);
      // The dialog stays open with the server's message; a conflict also reloads the list behind it.
      if (isConflict(err)) onClose(false, true, true);
    } finally {
      setBusy(false);
    }
  };

  const deptLabel = departmentOptions.find((d) => d.key === form.departmentId)?.label ?? (form.departmentId || t('set.user.noDepartment'));
  const allRoles = [...new Set([...roleOptions, ...form.roles])];
  return (
    <FormDialog open={open} title={creating ? t('set.user.add') : t('set.user.edit')} busy={busy} onCancel={() => onClose(false)} onSave={() => void save()} testId="user-dialog">
      <Field label={t('set.user.username')} required validationMessage={errors.username ? t(errors.username) : server.username} hint={t('set.user.usernameHint')} data-field="username">
        <Input name="username" value={form.username} disabled={!creating} onChange={(_, d) => setForm({ ...form, username: d.value })} />
      </Field>
      {creating && (
        <Field label={t('set.user.password')} required validationMessage={errors.password ? t(errors.password) : server.password} hint={t('set.user.passwordHint')} data-field="password">
          <Input name="password" type="password" autoComplete="new-password" value={form.password} onChange={(_, d) => {
              setForm({ ...form, password: d.value });
              setServer({ ...server, password: '' });
            }} />
        </Field>
      )}
      <Field label={t('set.user.email')} validationMessage={errors.email ? t(errors.email) : server.email} data-field="email">
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
  const [server, setServer] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setPassword('');
    setRepeat('');
    setErrors({});
    setServer({});
  }, [username]);
  const save = async () => {
    const found = validateNewPassword(password, repeat);
    setErrors(found);
    setServer({});
    if (Object.keys(found).length || !username) return;
    setBusy(true);
    try {
      const msg = await resetPassword(username, password, { fieldErrors: true });
      clearErrorToasts();
      notify(msg || t('set.common.saved'), 'success');
      onClose();
    } catch (err) {
      // The policy's refusal goes beside the field; other failures were toasted by the request layer.
      const words = serverFieldWords(err, i18n.language);
      setServer(words);
      toastUnshown(words, ['password'], i18n.language);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog open={!!username} title={t('set.user.resetTitle', { name: username ?? '' })} busy={busy} onCancel={onClose} onSave={() => void save()} width={440} testId="reset-dialog">
      <Field label={t('set.pwd.new')} required validationMessage={errors.password ? t(errors.password) : server.password} hint={t('set.user.resetHint')} data-field="password">
        <Input name="newPassword" type="password" autoComplete="new-password" value={password} onChange={(_, d) => {
          setPassword(d.value);
          setServer({});
        }} />
      </Field>
      <Field label={t('set.pwd.repeat')} required validationMessage={errors.repeat ? t(errors.repeat) : undefined}>
        <Input name="repeatPassword" type="password" autoComplete="new-password" value={repeat} onChange={(_, d) => setRepeat(d.value)} />
      </Field>
    </FormDialog>
  );
}
