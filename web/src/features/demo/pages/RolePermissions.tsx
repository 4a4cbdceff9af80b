import { Badge, Body1, Button, Card, CardHeader, makeStyles, Subtitle2, Tab, TabList, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '@/components/list/columns';
import { ListTable } from '@/components/list/ListTable';
import { Permission } from '@/components/Permission';
import type { Acl, Guard } from '@/router/types';
import { userStore } from '@/store/user';
import { hasAccess } from '@/utils/permission';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))', gap: '16px' },
  card: { padding: '20px', rowGap: '12px' },
  tags: { display: 'flex', flexWrap: 'wrap', gap: '6px' },
  row: { display: 'flex', flexWrap: 'wrap', gap: '8px' },
  label: { color: tokens.colorNeutralForeground3, minWidth: '96px', display: 'inline-block' },
});

type Sample = { key: string; guard: Guard };

/** The guards the demo buttons carry: a role list, or {role, permission, mode}. */
const SAMPLES: Sample[] = [
  { key: 'admin', guard: ['Admin'] },
  { key: 'editor', guard: ['Editor'] },
  { key: 'read', guard: { permission: ['read:system'] } },
  { key: 'write', guard: { permission: ['write:system'] } },
  { key: 'delete', guard: { permission: ['delete:system'] } },
  { key: 'notEditor', guard: { role: ['Editor'], mode: 'except' } },
  { key: 'readAndWrite', guard: { permission: ['read:system', 'write:system'], mode: 'allOf' } },
];

/** Mock role ACLs (Admin all, Editor read and write, Test read), to preview what another role would see. */
const ROLES: Record<string, Acl> = {
  Admin: { admin: true, role: ['Admin'], permission: ['read:system', 'write:system', 'delete:system'] },
  Editor: { admin: false, role: ['Editor'], permission: ['read:system', 'write:system'] },
  Test: { admin: false, role: ['Test'], permission: ['read:system'] },
};

/** A guard in words: 'Admin | Editor', 'permission (allOf): read:system, write:system'. */
const guardText = (g: Guard): string => {
  if (Array.isArray(g)) return g.join(' | ');
  const mode = g.mode ?? 'oneOf';
  const names = (v: string | string[] | null | undefined) => [v ?? []].flat().join(', ');
  return [g.role?.length ? `role (${mode}): ${names(g.role)}` : '', g.permission?.length ? `permission (${mode}): ${names(g.permission)}` : ''].filter(Boolean).join('; ');
};

/** Shows the signed-in user's roles and permissions; buttons hidden by the Permission component. */
export default function PermissionPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const user = userStore.use((s) => s);
  const [preview, setPreview] = useState('Editor');
  const previewColumns: ListColumn<Sample>[] = [
    { id: 'button', header: t('dm.perm.button'), cell: (s) => t(`dm.perm.sample.${s.key}`) },
    { id: 'guard', header: t('dm.perm.guard'), cell: (s) => <code style={{ wordBreak: 'break-word' }}>{guardText(s.guard)}</code> },
    {
      id: 'visible',
      header: t('dm.perm.visible'),
      cell: (s) => {
        const ok = hasAccess(ROLES[preview], s.guard);
        return (
          <Badge color={ok ? 'success' : 'danger'} appearance="tint">
            {ok ? t('dm.perm.shown') : t('dm.perm.hidden')}
          </Badge>
        );
      },
    },
  ];
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.perm.current')}</Subtitle2>} />
        <Body1>
          <span className={styles.label}>{t('dm.perm.user')}</span>
          <span translate="no">{user.username}</span>
        </Body1>
        <Body1>
          <span className={styles.label}>{t('dm.perm.admin')}</span>
          {user.admin ? t('dm.common.yes') : t('dm.common.no')}
        </Body1>
        <div className={styles.tags}>
          <span className={styles.label}>{t('dm.perm.roles')}</span>
          {user.role.map((r) => (
            <Badge key={r} appearance="tint" translate="no">
              {r}
            </Badge>
          ))}
        </div>
        <div className={styles.tags}>
          <span className={styles.label}>{t('dm.perm.permissions')}</span>
          {user.permission.map((p) => (
            <Badge key={p} appearance="outline" color="informative" translate="no">
              {p}
            </Badge>
          ))}
        </div>
        <Subtitle2>{t('dm.perm.buttons')}</Subtitle2>
        <Body1>{t('dm.perm.buttonsHint')}</Body1>
        <div className={styles.row} data-testid="permission-buttons">
          {SAMPLES.map((s) => (
            <Permission key={s.key} guard={s.guard}>
              <Button>{t(`dm.perm.sample.${s.key}`)}</Button>
            </Permission>
          ))}
        </div>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.perm.preview')}</Subtitle2>} />
        <TabList selectedValue={preview} onTabSelect={(_, d) => setPreview(String(d.value))}>
          {Object.keys(ROLES).map((r) => (
            <Tab key={r} value={r} translate="no">
              {r}
            </Tab>
          ))}
        </TabList>
        <ListTable columns={previewColumns} rows={SAMPLES} rowKey={(s) => s.key} />
      </Card>
    </div>
  );
}
