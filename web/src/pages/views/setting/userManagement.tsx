import { Badge, Button, Card, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { deleteUser, getDepartments, getRoles, getUsers, type Department, type StaffUser } from '@/api/settings';
import { Pager } from '@/components/demo/Pager';
import { parentOptions } from '@/components/settings/logic';
import { confirmDelete, EmptyRow, SearchBox, useSettingStyles } from '@/components/settings/ui';
import { ResetPasswordDialog, UserDialog } from '@/components/settings/UserDialogs';
import { userStore } from '@/store/user';

const deptKey = (d: Department) => d.id;

/** Staff accounts: username prefix filter, paging, create/edit, reset password, delete. */
export default function UserManagement() {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const me = userStore.use((s) => s.username);
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 20, username: '' });
  const [editing, setEditing] = useState<{ open: boolean; user: StaffUser | null }>({ open: false, user: null });
  const [resetting, setResetting] = useState<string | null>(null);
  const { data, isLoading, mutate } = useSWR(['setting/users', query.pageNo, query.pageSize, query.username], () => getUsers(query), { keepPreviousData: true });
  const roles = useSWR('setting/roles/options', () => getRoles({ pageNo: 1, pageSize: 100 }), { shouldRetryOnError: false });
  const depts = useSWR('setting/departments', getDepartments, { shouldRetryOnError: false });
  const deptOptions = useMemo(() => parentOptions(depts.data?.list ?? [], deptKey, (d) => d.name), [depts.data]);
  const deptName = (id?: string | null) => (id ? (deptOptions.find((d) => d.key === id)?.label ?? id) : '—');
  const list = data?.list ?? [];

  const remove = async (u: StaffUser) => {
    if ((await confirmDelete(t('set.user.confirmDelete', { name: u.username }), () => deleteUser(u.username))) === 'deleted') void mutate();
  };

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({ open: true, user: null })} data-testid="user-add">
          {t('set.user.add')}
        </Button>
        <SearchBox placeholder={t('set.user.filter')} onSearch={(text) => setQuery({ ...query, pageNo: 1, username: text })} testId="user-filter" />
      </div>
      <div className={styles.scroll}>
        <Table size="small" aria-label={t('set.user.title')} style={{ minWidth: '1100px' }}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('set.user.username')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '220px' }}>{t('set.user.email')}</TableHeaderCell>
              <TableHeaderCell>{t('set.user.roles')}</TableHeaderCell>
              <TableHeaderCell>{t('set.user.department')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '90px' }}>{t('set.user.status')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '170px' }}>{t('set.user.created')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '270px' }}>{t('set.common.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.map((u) => (
              <TableRow key={u.id} data-user={u.username}>
                <TableCell>
                  {u.username}
                  {u.username === me && <span className={styles.muted}> {t('set.user.you')}</span>}
                </TableCell>
                <TableCell>{u.email || '—'}</TableCell>
                <TableCell>
                  <div className={styles.tags}>
                    {u.roles.map((r) => (
                      <Badge key={r} appearance="tint" color={r === 'Admin' ? 'danger' : 'brand'}>
                        {r}
                      </Badge>
                    ))}
                  </div>
                </TableCell>
                <TableCell>{deptName(u.departmentId)}</TableCell>
                <TableCell>
                  <Badge appearance="outline" color={u.enabled ? 'success' : 'subtle'}>
                    {u.enabled ? t('set.user.enabled') : t('set.user.disabled')}
                  </Badge>
                </TableCell>
                <TableCell className={styles.muted}>{u.datatime}</TableCell>
                <TableCell>
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
                </TableCell>
              </TableRow>
            ))}
            <EmptyRow show={!isLoading && !list.length} colSpan={7} />
          </TableBody>
        </Table>
        {isLoading && !data && <Spinner size="small" />}
      </div>
      <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} onChange={(pageNo, pageSize) => setQuery({ ...query, pageNo, pageSize })} />
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
