import { Avatar, Badge, Button, Card, CardHeader, Field, Input, makeStyles, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageForField } from '@/api/request';
import { changeOwnPassword, updateProfile } from '../api/settings';
import { useOwnAccount } from '@/api/user';
import { validateNewPassword, validateProfile, type Errors } from '../model/logic';
import { permissionLabel } from '../components/RoleDialog';
import { useSettingStyles } from '@/components/forms/ui';
import { userStore } from '@/store/user';

/** The picture user info names for an account without one of its own (users.rs DEFAULT_AVATAR). */
const SERVER_DEFAULT_AVATAR = 'avatar.svg';
import { notify } from '@/utils/notify';
import { SocialLinks } from '../components/SocialLinks';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(340px, 1fr))', columnGap: '16px', rowGap: '16px', alignItems: 'start' },
  who: { display: 'flex', alignItems: 'center', columnGap: '16px' },
  facts: { display: 'flex', flexDirection: 'column', rowGap: '6px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The signed-in user's profile (e-mail, avatar URL) and password change. */
export default function PersonalCenter() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const shared = useSettingStyles();
  const me = userStore.use((s) => s.username);
  const avatar = userStore.use((s) => s.avatar);
  const roles = userStore.use((s) => s.role);
  const permissions = userStore.use((s) => s.permission);
  // The signed-in user's own record: every role may read it (the user list is Admin-only).
  const account = useOwnAccount(me);
  const [profile, setProfile] = useState({ email: '', avatar: '' });
  const [profileErrors, setProfileErrors] = useState<Errors<'email' | 'avatar'>>({});
  const [savingProfile, setSavingProfile] = useState(false);
  useEffect(() => {
    // The default picture (user info's 'avatar.svg') is no address of the
    // user's own: the field stays empty, so saving the e-mail alone works.
    const own = account.data?.avatar ?? '';
    setProfile({ email: account.data?.email ?? '', avatar: own === SERVER_DEFAULT_AVATAR ? '' : own });
  }, [account.data]);

  const [pwd, setPwd] = useState({ old: '', password: '', repeat: '' });
  const [pwdErrors, setPwdErrors] = useState<Errors<'old' | 'password' | 'repeat'>>({});
  // The server's reason for refusing the new password (its strength check), in the reader's language.
  const [passwordRefused, setPasswordRefused] = useState<string>();
  const [savingPwd, setSavingPwd] = useState(false);

  const saveProfile = async () => {
    const found = validateProfile(profile);
    setProfileErrors(found);
    if (Object.keys(found).length) return;
    setSavingProfile(true);
    try {
      const saved = await updateProfile({ email: profile.email.trim(), avatar: profile.avatar.trim() });
      userStore.set({ avatar: saved.avatar || avatar });
      notify(saved.msg || t('set.common.saved'), 'success');
      void account.mutate();
    } catch {
      /* toasted by the request layer */
    } finally {
      setSavingProfile(false);
    }
  };

  const savePassword = async () => {
    const found: Errors<'old' | 'password' | 'repeat'> = { ...validateNewPassword(pwd.password, pwd.repeat, me) };
    if (!pwd.old) found.old = 'set.pwd.oldRequired';
    else if (!found.password && pwd.old === pwd.password) found.password = 'set.pwd.same';
    setPwdErrors(found);
    if (Object.keys(found).length) return;
    setSavingPwd(true);
    try {
      notify((await changeOwnPassword(pwd.old, pwd.password)) || t('set.common.saved'), 'success');
      setPwd({ old: '', password: '', repeat: '' });
    } catch (err) {
      // A refused new password is shown on its field; the request layer
      // toasted anything else (e.g. a wrong current password).
      setPasswordRefused(messageForField(err, 'newPassword', i18n.language.startsWith('zh')));
    } finally {
      setSavingPwd(false);
    }
  };

  // Only a web address is previewed: the page's Content-Security-Policy
  // would block any other scheme (and the server refuses it on save).
  const typed = profile.avatar.trim();
  const preview = typed && !profileErrors.avatar && /^https?:\/\/[^\s]+$/i.test(typed) ? typed : avatar;
  return (
    <div className={styles.page}>
      <Card className={shared.card}>
        <CardHeader header={<Subtitle2>{t('set.profile.title')}</Subtitle2>} />
        <div className={styles.who}>
          <Avatar size={72} image={{ src: preview }} name={me} />
          <div className={styles.facts}>
            <Text weight="semibold" size={500} data-testid="profile-username" translate="no">
              {me}
            </Text>
            <div className={shared.tags}>
              {roles.map((r) => (
                <Badge key={r} appearance="tint" color={r === 'Admin' ? 'danger' : 'brand'} translate="no">
                  {r}
                </Badge>
              ))}
            </div>
            <Text size={200} className={styles.muted}>
              {account.data?.datatime ? t('set.profile.since', { time: account.data.datatime }) : ''}
            </Text>
          </div>
        </div>
        <Field label={t('set.profile.permissions')}>
          <div className={shared.tags}>
            {permissions.map((p) => (
              <Badge key={p} appearance="outline" color="informative" title={p}>
                {permissionLabel(t, p)}
              </Badge>
            ))}
            {!permissions.length && <span className={styles.muted}>—</span>}
          </div>
        </Field>
        <form
          noValidate
          className={shared.form}
          onSubmit={(e) => {
            e.preventDefault();
            void saveProfile();
          }}
        >
          <Field label={t('set.user.email')} validationMessage={profileErrors.email ? t(profileErrors.email) : undefined}>
            <Input name="email" type="email" value={profile.email} onChange={(_, d) => setProfile({ ...profile, email: d.value })} />
          </Field>
          <Field label={t('set.profile.avatar')} hint={t('set.profile.avatarHint')} validationMessage={profileErrors.avatar ? t(profileErrors.avatar) : undefined}>
            <Input name="avatar" value={profile.avatar} placeholder="https://" onChange={(_, d) => setProfile({ ...profile, avatar: d.value })} />
          </Field>
          <div>
            <Button type="submit" appearance="primary" disabled={savingProfile} data-testid="profile-save">
              {t('set.profile.save')}
            </Button>
          </div>
        </form>
      </Card>
      <Card className={shared.card}>
        <CardHeader header={<Subtitle2>{t('set.pwd.title')}</Subtitle2>} description={<Text size={200} className={styles.muted}>{t('set.pwd.hint')}</Text>} />
        <form
          noValidate
          className={shared.form}
          onSubmit={(e) => {
            e.preventDefault();
            void savePassword();
          }}
        >
          <input type="text" name="username" autoComplete="username" value={me} readOnly hidden />
          <Field label={t('set.pwd.old')} required validationMessage={pwdErrors.old ? t(pwdErrors.old) : undefined}>
            <Input name="oldPassword" type="password" autoComplete="current-password" value={pwd.old} onChange={(_, d) => setPwd({ ...pwd, old: d.value })} />
          </Field>
          <Field label={t('set.pwd.new')} required validationMessage={pwdErrors.password ? t(pwdErrors.password) : passwordRefused}>
            <Input
              name="newPassword"
              type="password"
              autoComplete="new-password"
              value={pwd.password}
              onChange={(_, d) => {
                setPwd({ ...pwd, password: d.value });
                setPasswordRefused(undefined);
              }}
            />
          </Field>
          <Field label={t('set.pwd.repeat')} required validationMessage={pwdErrors.repeat ? t(pwdErrors.repeat) : undefined}>
            <Input name="repeatPassword" type="password" autoComplete="new-password" value={pwd.repeat} onChange={(_, d) => setPwd({ ...pwd, repeat: d.value })} />
          </Field>
          <div>
            <Button type="submit" appearance="primary" disabled={savingPwd} data-testid="password-save">
              {t('set.pwd.submit')}
            </Button>
          </div>
        </form>
      </Card>
      <SocialLinks />
    </div>
  );
}
