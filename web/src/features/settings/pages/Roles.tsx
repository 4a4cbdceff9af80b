import { Badge, Button, Card } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteRole, useRoles, type Role } from '../api/settings';
import type { ListColumn } from '@/components/list/columns';
import { ListView } from '@/components/list/ListView';
import { pageQuery, useListPage } from '@/components/list/useListPage';
import { permissionLabel, RoleDialog } from '../components/RoleDialog';
import { RoleMenuDialog } from '../components/RoleMenuDialog';
import { confirmDelete, SearchBox, useSettingStyles } from '@/components/forms/ui';

/** The list's state in the URL: role name prefix, page. */
const LIST_DEFAULTS = { role: '', page: 1, size: 20 };
const useRoleList = (p: typeof LIST_DEFAULTS) => useRoles(pageQuery(p));

/** Roles with their permissions and holder counts; create, edit/rename, delete. */
export default function RoleManagement() {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const list = useListPage(LIST_DEFAULTS, useRoleList);
  const { params, data, mutate } = list;
  const [editing, setEditing] = useState<{ open: boolean; role: Role | null }>({ open: false, role: null });
  const [viewing, setViewing] = useState<Role | null>(null);

  const remove = async (r: Role) => {
    // Refused while someone holds the role (the server says so).
    if ((await confirmDelete(t('set.role.confirmDelete', { name: r.role }), () => deleteRole(r.role))) === 'deleted') void mutate();
  };

  const columns: ListColumn<Role>[] = [
    { id: 'name', header: t('set.role.name'), width: '160px', data: true, cell: (r) => <strong>{r.role}</strong> },
    {
      id: 'permissions',
      header: t('set.role.permissions'),
      cell: (r) => (
        <div className={styles.tags}>
          {r.permissions.map((p) => (
            <Badge key={p} appearance="tint" color="informative" title={p}>
              {permissionLabel(t, p)}
            </Badge>
          ))}
          {!r.permissions.length && <span className={styles.muted}>{t('set.role.noPermissions')}</span>}
        </div>
      ),
    },
    { id: 'description', header: t('set.role.description'), data: true, cell: (r) => r.description || '—' },
    { id: 'users', header: t('set.role.users'), width: '90px', cell: (r) => r.userCount },
    {
      id: 'actions',
      header: t('set.common.actions'),
      width: '230px',
      cell: (r) => (
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
      ),
    },
  ];

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({ open: true, role: null })} data-testid="role-add">
          {t('set.role.add')}
        </Button>
        <SearchBox placeholder={t('set.role.filter')} onSearch={(text) => list.filterBy({ role: text })} key={params.role} initial={params.role} />
      </div>
      <ListView
        list={list}
        scrollClassName={styles.scroll}
        aria-label={t('set.role.title')}
        style={{ minWidth: '800px' }}
        columns={columns}
        rowKey={(r) => r.id}
        rowAttrs={(r) => ({ 'data-role-row': r.role })}
        empty={<span className={styles.muted}>{t('common.noData')}</span>}
      />
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
