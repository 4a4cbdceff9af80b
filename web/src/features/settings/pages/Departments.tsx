import { Button, Card, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { ArrowSyncRegular } from '@fluentui/react-icons/svg/arrow-sync';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataText } from '@/components/data/DataText';
import { deleteDepartment, useDepartments, type Department } from '../api/settings';
import { DepartmentDialog } from '../components/DepartmentDialog';
import { flattenTree, subtreeKeys } from '../model/logic';
import { TreeCell } from '../components/TreeToggle';
import { confirmDelete, EmptyRow, useSettingStyles } from '@/components/forms/ui';

const key = (d: Department) => d.id;

/** The department tree: expand/collapse, add (top level or child), edit (move without cycles), delete. */
export default function DepartmentManagement() {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  const { data, isLoading, mutate } = useDepartments();
  const tree = useMemo(() => data?.list ?? [], [data]);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<{ open: boolean; department: Department | null; parentId: string }>({ open: false, department: null, parentId: '' });
  const rows = useMemo(() => flattenTree(tree, key, collapsed), [tree, collapsed]);
  const allKeys = useMemo(() => new Set(tree.flatMap((n) => [...subtreeKeys(n, key)])), [tree]);

  const toggle = (id: string) => {
    const next = new Set(collapsed);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setCollapsed(next);
  };
  const remove = async (d: Department) => {
    // Refused while it has sub-departments or members (the server says so).
    if ((await confirmDelete(t('set.dept.confirmDelete', { name: d.name }), () => deleteDepartment(d.id))) === 'deleted') void mutate();
  };

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <div className={styles.group}>
          <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({ open: true, department: null, parentId: '' })} data-testid="dept-add">
            {t('set.dept.add')}
          </Button>
          <Button onClick={() => setCollapsed(new Set())}>{t('set.common.expandAll')}</Button>
          <Button onClick={() => setCollapsed(new Set(allKeys))}>{t('set.common.collapseAll')}</Button>
        </div>
        <Button icon={<ArrowSyncRegular />} onClick={() => void mutate()}>
          {t('set.common.reload')}
        </Button>
      </div>
      <div className={styles.scroll}>
        <Table size="small" aria-label={t('set.dept.title')} style={{ minWidth: '820px' }}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('set.dept.name')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '80px' }}>{t('set.dept.order')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '90px' }}>{t('set.dept.users')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '170px' }}>{t('set.dept.createTime')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '290px' }}>{t('set.common.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map(({ node, depth, hasChildren }) => (
              <TableRow key={node.id} data-dept={node.name}>
                <TableCell>
                  <TreeCell depth={depth} hasChildren={hasChildren} collapsed={collapsed.has(node.id)} onToggle={() => toggle(node.id)}>
                    <DataText>{node.name}</DataText>
                  </TreeCell>
                </TableCell>
                <TableCell>{node.order}</TableCell>
                <TableCell>{node.userCount ?? '—'}</TableCell>
                <TableCell className={styles.muted}>{node.createTime ?? '—'}</TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Button size="small" appearance="transparent" onClick={() => setEditing({ open: true, department: null, parentId: node.id })}>
                      {t('set.dept.addChild')}
                    </Button>
                    <Button size="small" appearance="transparent" onClick={() => setEditing({ open: true, department: node, parentId: node.parentId })}>
                      {t('set.common.edit')}
                    </Button>
                    <Button size="small" appearance="transparent" onClick={() => void remove(node)}>
                      {t('set.common.delete')}
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
            <EmptyRow show={!isLoading && !rows.length} colSpan={5} />
          </TableBody>
        </Table>
        {isLoading && !data && <Spinner size="small" />}
      </div>
      <DepartmentDialog
        open={editing.open}
        tree={tree}
        department={editing.department}
        parentId={editing.parentId}
        onClose={(saved, reload, keepOpen) => {
          if (!keepOpen) setEditing({ open: false, department: null, parentId: '' });
          if (saved || reload) void mutate();
        }}
      />
    </Card>
  );
}
