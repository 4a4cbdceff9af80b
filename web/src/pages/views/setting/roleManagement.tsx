import { Badge, Button, Card, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { deleteRole, getRoles, type Role } from '@/api/settings';
import { Pager } from '@/components/demo/Pager';
import { permissionLabel, RoleDialog } from '@/components/settings/RoleDialog';
import { RoleMenuDialog } from '@/components/settings/RoleMenuDialog';
import { confirmDelete, EmptyRow, SearchBox, useSettingStyles } from '@/components/settings/ui';

/** Roles with their permissions and holder counts; create, edit/rename, delete. */
export default function RoleManagement() {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 20, role: '' });
  const [editing, setEditing] = useState<{ open: boolean; role: Role | null }>({ open: false, role: null });
  const [viewing, setViewing] = useState<Role | null>(null);
  const { data, isLoading, mutate } = useSWR(['setting/roles', query.pageNo, query.pageSize, query.role], () => getRoles(query), { keepPreviousData: true });
  const list = data?.list ?? [];

  const remove = async (r: Role) => {
    // Refused while someone holds the role (the server says so).
    if ((await confirmDelete(t('set.role.confirmDelete', { name: r.role }), () => deleteRole(r.role))) === 'deleted') void mutate();
  };

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({ open: true, role: null })} data-testid="role-add">
          {t('set.role.add')}
        </Button>
        <SearchBox placeholder={t('set.role.filter')} onSearch={(text) => setQuery({ ...query, pageNo: 1, role: text })} />
      </div>
      <div className={styles.scroll}>
        <Table size="small" aria-label={t('set.role.title')} style={{ minWidth: '800px' }}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell style={{ width: '160px' }}>{t('set.role.name')}</TableHeaderCell>
              <TableHeaderCell>{t('set.role.permissions')}</TableHeaderCell>
              <TableHeaderCell>{t('set.role.description')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '90px' }}>{t('set.role.users')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '230px' }}>{t('set.common.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.map((r) => (
              <TableRow key={r.id} data-role-row={r.role}>
                <TableCell>
                  <strong>{r.role}</strong>
                </TableCell>
                <TableCell>
                  <div className={styles.tags}>
                    {r.permissions.map((p) => (
                      <Badge key={p} appearance="tint" color="informative" title={p}>
                        {permissionLabel(t, p)}
                      </Badge>
                    ))}
                    {!r.permissions.length && <span className={styles.muted}>{t('set.role.noPermissions')}</span>}
                  </div>
                </TableCell>
                <TableCell>{r.description || '—'}</TableCell>
                <TableCell>{r.userCount}</TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Button size="small" appearance="transparent" onClick={() => setViewing(r)} data-testid="role-menu">
                      {t('set.role.menu')}
                    </Button>
                    <Button size="small" appearance="transparent" onClick={() => setEditing({ open: true, role: r })}>
                      {t('set.common.edit')}
                    </Button>
                    <Button size="small" appearance="transparent" title={r.userCount > 0 ? t('set.role.inUse', { n: r.userCount }) : undefined} onClick={() => void remove(r)}>
                      {t('set.common.delete')}
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
            <EmptyRow show={!isLoading && !list.length} colSpan={5} />
          </TableBody>
        </Table>
        {isLoading && !data && <Spinner size="small" />}
      </div>
      <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} onChange={(pageNo, pageSize) => setQuery({ ...query, pageNo, pageSize })} />
      <RoleMenuDialog role={viewing} onClose={() => setViewing(null)} />
      <RoleDialog
        open={editing.open}
        role={editing.role}
        options={data?.permissionOptions ?? []}
        onClose={(saved, reload, keepOpen) => {
          if (!keepOpen) setEditing({ open: false, role: null });
          if (saved || reload) void mutate();
        }}
      />
    </Card>
  );
}
