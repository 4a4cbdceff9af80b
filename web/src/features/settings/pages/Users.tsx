import { Badge, Button, Card } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { deleteUser, useDepartments, useRoleOptions, useUsers, type Department, type StaffUser } from '../api/settings';
import type { ListColumn } from '@/components/list/columns';
import { ListView } from '@/components/list/ListView';
import { pageQuery, useListPage } from '@/components/list/useListPage';
import { parentOptions } from '../model/logic';
import { confirmDelete, SearchBox, useSettingStyles } from '@/components/forms/ui';
import { ResetPasswordDialog, UserDialog } from '../components/UserDialogs';
import { userStore } from '@/store/user';

const deptKey = (d: Department) => d.id;
/** The list's state in the URL: username prefix, page. */
const LIST_DEFAULTS = { username: '', page: 1, size: 20 };
const useUserList = (p: typeof LIST_DEFAULTS) => useUsers(pageQuery(p));

/** Staff accounts: username prefix filter, paging, create/edit, reset password, delete. */
export default function UserManagement() {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const me = userStore.use((s) => s.username);
  const list = useListPage(LIST_DEFAULTS, useUserList);
  const { params, mutate } = list;
  const [editing, setEditing] = useState<{ open: boolean; user: StaffUser | null }>({ open: false, user: null });
  const [resetting, setResetting] = useState<string | null>(null);
  const roles = useRoleOptions();
  const depts = useDepartments(true);
  const deptOptions = useMemo(() => parentOptions(depts.data?.list ?? [], deptKey, (d) => d.name), [depts.data]);
  const deptName = (id?: string | null) => (id ? (deptOptions.find((d) => d.key === id)?.label ?? id) : '—');

  const remove = async (u: StaffUser) => {
    if ((await confirmDelete(t('set.user.confirmDelete', { name: u.username }), () => deleteUser(u.username))) === 'deleted') void mutate();
  };

  const columns: ListColumn<StaffUser>[] = [
    {
      id: 'username',
      header: t('set.user.username'),
      cell: (u) => (
        <>
          <DataText>{u.username}</DataText>
          {u.username === me && <span className={styles.muted}> {t('set.user.you')}</span>}
        </>
      ),
    },
    { id: 'email', header: t('set.user.email'), width: '220px', data: true, cell: (u) => u.email || '—' },
    {
      id: 'roles',
      header: t('set.user.roles'),
      // Role names are the Admin's, shown as named.
      data: true,
      cell: (u) => (
        <div className={styles.tags}>
          {u.roles.map((r) => (
            <Badge key={r} appearance="tint" color={r === 'Admin' ? 'danger' : 'brand'}>
              {r}
            </Badge>
          ))}
        </div>
      ),
    },
    { id: 'department', header: t('set.user.department'), data: true, cell: (u) => deptName(u.departmentId) },
    {
      id: 'status',
      header: t('set.user.status'),
      width: '90px',
      cell: (u) => (
        <Badge appearance="outline" color={u.enabled ? 'success' : 'subtle'}>
          {u.enabled ? t('set.user.enabled') : t('set.user.disabled')}
        </Badge>
      ),
    },
    { id: 'created', header: t('set.user.created'), width: '170px', className: styles.muted, cell: (u) => u.datatime },
    {
      id: 'actions',
      header: t('set.common.actions'),
      width: '270px',
      cell: (u) => (
        <div className={styles.actions}>
          <Button size="small" appearance="transparent" onClick={() => setEditing({ open: true, user: u })}>
            {t('set.common.edit')}
          </Button>
          {/* One's own password is changed in the personal center (the server refuses it here). */}
          <Button size="small" appearance="transparent" disabled={u.username === me} onClick={() => setResetting(u.username)}>
            {t('set.user.resetPassword')}
          </Button>
          <Button size="small" appearance="transparent" disabled={u.username === me} onClick={() => void remove(u)}>
            {t('set.common.delete')}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({ open: true, user: null })} data-testid="user-add">
          {t('set.user.add')}
        </Button>
        <SearchBox placeholder={t('set.user.filter')} onSearch={(text) => list.filterBy({ username: text })} testId="user-filter" key={params.username} initial={params.username} />
      </div>
      <ListView
        list={list}
        scrollClassName={styles.scroll}
        aria-label={t('set.user.title')}
        style={{ minWidth: '1100px' }}
        columns={columns}
        rowKey={(u) => u.id}
        rowAttrs={(u) => ({ 'data-user': u.username })}
        empty={<span className={styles.muted}>{t('common.noData')}</span>}
      />
      <UserDialog
        open={editing.open}
        user={editing.user}
        roleOptions={(roles.data?.list ?? []).map((r) => r.role)}
        departmentOptions={deptOptions}
        onClose={(saved, reload, keepOpen) => {
          if (!keepOpen) setEditing({ open: false, user: null });
          if (saved || reload) void mutate();
        }}
      />
      <ResetPasswordDialog username={resetting} onClose={() => setResetting(null)} />
    </Card>
  );
}
