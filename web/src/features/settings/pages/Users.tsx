import { Badge, Button, Card, Spinner } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { deleteUser, useDepartments, useRoleOptions, useUsers, type Department, type StaffUser } from '../api/settings';
import { Pager } from '@/components/data/Pager';
import type { ListColumn } from '@/components/list/columns';
import { useListParams } from '@/components/list/listParams';
import { ListTable } from '@/components/list/ListTable';
import { parentOptions } from '../model/logic';
import { confirmDelete, SearchBox, useSettingStyles } from '@/components/forms/ui';
import { ResetPasswordDialog, UserDialog } from '../components/UserDialogs';
import { userStore } from '@/store/user';

const deptKey = (d: Department) => d.id;
/** The list's state in the URL: username prefix, page. */
const LIST_DEFAULTS = { username: '', page: 1, size: 20 };

/** Staff accounts: username prefix filter, paging, create/edit, reset password, delete. */
export default function UserManagement() {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const me = userStore.use((s) => s.username);
  const { params, set } = useListParams(LIST_DEFAULTS);
  const query = { pageNo: params.page, pageSize: params.size, username: params.username };
  const [editing, setEditing] = useState<{ open: boolean; user: StaffUser | null }>({ open: false, user: null });
  const [resetting, setResetting] = useState<string | null>(null);
  const { data, isLoading, mutate } = useUsers(query);
  const roles = useRoleOptions();
  const depts = useDepartments(true);
  const deptOptions = useMemo(() => parentOptions(depts.data?.list ?? [], deptKey, (d) => d.name), [depts.data]);
  const deptName = (id?: string | null) => (id ? (deptOptions.find((d) => d.key === id)?.label ?? id) : '—');
  const list = data?.list ?? [];

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
        <SearchBox placeholder={t('set.user.filter')} onSearch={(text) => set({ username: text, page: 1 })} testId="user-filter" key={params.username} initial={params.username} />
      </div>
      <div className={styles.scroll}>
        <ListTable
          aria-label={t('set.user.title')}
          style={{ minWidth: '1100px' }}
          columns={columns}
          rows={list}
          rowKey={(u) => u.id}
          rowAttrs={(u) => ({ 'data-user': u.username })}
          empty={!isLoading ? <span className={styles.muted}>{t('common.noData')}</span> : undefined}
        />
        {isLoading && !data && <Spinner size="small" />}
      </div>
      <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} onChange={(page, size) => set({ page, size })} />
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
