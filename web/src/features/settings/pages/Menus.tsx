import { Badge, Button, Card, MessageBar, MessageBarBody, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { ArrowSyncRegular } from '@fluentui/react-icons/svg/arrow-sync';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouteTitle } from '@/layout/RouteTitle';
import { deleteMenu, useMenus, type MenuNode } from '../api/settings';
import { RouteIcon } from '@/components/RouteIcon';
import { flattenTree, guardText, parentKeyOf, subtreeKeys } from '../model/logic';
import { MenuDialog } from '../components/MenuDialog';
import { TreeCell } from '../components/TreeToggle';
import { confirmDelete, EmptyRow, useSettingStyles } from '@/components/forms/ui';
import { useTranslateTitle } from '@/i18n';

const key = (n: MenuNode) => n.name;

/** The route/menu tree the sidebar is built from: add, edit, move, delete nodes. */
export default function MenuManagement() {
  const { t } = useTranslation();
  const tt = useTranslateTitle();
  const styles = useSettingStyles();
  const { data, isLoading, mutate } = useMenus();
  const tree = useMemo(() => data?.list ?? [], [data]);
  const allKeys = useMemo(() => new Set(tree.flatMap((n) => [...subtreeKeys(n, key)])), [tree]);
  // Top-level sections start folded: the tree is long.
  const [collapsed, setCollapsed] = useState<Set<string> | null>(null);
  const folded = useMemo(() => collapsed ?? new Set(tree.map(key)), [collapsed, tree]);
  const rows = useMemo(() => flattenTree(tree, key, folded), [tree, folded]);
  const [editing, setEditing] = useState<{ open: boolean; node: MenuNode | null; parentName: string }>({ open: false, node: null, parentName: '' });

  const toggle = (name: string) => {
    const next = new Set(folded);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    setCollapsed(next);
  };
  const remove = async (n: MenuNode) => {
    // Reloaded after a refusal too: a conflict means the tree changed meanwhile.
    if ((await confirmDelete(t('set.menu.confirmDelete', { name: tt(n.meta?.title) || n.name }), () => deleteMenu(n.name, data?.version ?? 0))) !== 'cancelled') void mutate();
  };

  return (
    <Card className={styles.card}>
      <MessageBar intent="info">
        <MessageBarBody>{t('set.menu.reloginNote')}</MessageBarBody>
      </MessageBar>
      <div className={styles.toolbar}>
        <div className={styles.group}>
          <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({ open: true, node: null, parentName: '' })} data-testid="menu-add">
            {t('set.menu.add')}
          </Button>
          <Button onClick={() => setCollapsed(new Set())} data-testid="menu-expand-all">
            {t('set.common.expandAll')}
          </Button>
          <Button onClick={() => setCollapsed(new Set(allKeys))}>{t('set.common.collapseAll')}</Button>
        </div>
        <div className={styles.group}>
          <span className={styles.muted}>{t('set.menu.count', { n: data?.total ?? 0 })}</span>
          <Button icon={<ArrowSyncRegular />} onClick={() => void mutate()}>
            {t('set.common.reload')}
          </Button>
        </div>
      </div>
      <div className={styles.scroll}>
        <Table size="small" aria-label={t('set.menu.pageTitle')} style={{ minWidth: '1150px' }}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('set.menu.title')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '170px' }}>{t('set.menu.name')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '190px' }}>{t('set.menu.path')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '220px' }}>{t('set.menu.component')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '150px' }}>{t('set.menu.guard')}</TableHeaderCell>
              <TableHeaderCell style={{ width: '230px' }}>{t('set.common.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map(({ node, depth, hasChildren }) => (
              <TableRow key={node.name} data-menu-name={node.name}>
                <TableCell>
                  <TreeCell depth={depth} hasChildren={hasChildren} collapsed={folded.has(node.name)} onToggle={() => toggle(node.name)}>
                    <RouteIcon name={node.meta?.icon} />
                    {node.meta?.title ? (
                      <RouteTitle title={node.meta.title} testId="menu-title" />
                    ) : (
                      <span translate="no" data-testid="menu-title">
                        {node.name}
                      </span>
                    )}
                    {node.meta?.hidden && (
                      <Badge size="small" appearance="outline" color="subtle">
                        {t('set.menu.flag.hidden')}
                      </Badge>
                    )}
                    {node.meta?.badge !== undefined && node.meta.badge !== '' && (
                      <Badge size="small" appearance="tint" color="danger" translate="no">
                        {String(node.meta.badge)}
                      </Badge>
                    )}
                  </TreeCell>
                </TableCell>
                <TableCell translate="no">{node.name}</TableCell>
                <TableCell>
                  <code>{node.path}</code>
                </TableCell>
                <TableCell className={styles.muted} translate="no">
                  {node.component || '—'}
                </TableCell>
                <TableCell className={styles.muted} translate="no">
                  {guardText(node.meta?.guard) || '—'}
                </TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Button size="small" appearance="transparent" onClick={() => setEditing({ open: true, node: null, parentName: node.name })}>
                      {t('set.menu.addChild')}
                    </Button>
                    <Button size="small" appearance="transparent" onClick={() => setEditing({ open: true, node, parentName: parentKeyOf(tree, key, node.name) ?? '' })} data-testid="menu-edit">
                      {t('set.common.edit')}
                    </Button>
                    <Button size="small" appearance="transparent" disabled={hasChildren} title={hasChildren ? t('set.menu.hasChildren') : undefined} onClick={() => void remove(node)}>
                      {t('set.common.delete')}
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
            <EmptyRow show={!isLoading && !rows.length} colSpan={6} />
          </TableBody>
        </Table>
        {isLoading && !data && <Spinner size="small" />}
      </div>
      <MenuDialog
        open={editing.open}
        tree={tree}
        node={editing.node}
        parentName={editing.parentName}
        components={data?.components ?? []}
        version={data?.version ?? 0}
        onClose={(saved, reload, keepOpen) => {
          if (!keepOpen) setEditing({ open: false, node: null, parentName: '' });
          if (saved || reload) void mutate();
        }}
      />
    </Card>
  );
}
