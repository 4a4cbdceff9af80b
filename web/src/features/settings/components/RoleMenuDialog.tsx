import { Button, Caption1, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner } from '@fluentui/react-components';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenus, type MenuNode, type Role } from '../api/settings';
import { RouteIcon } from '@/components/RouteIcon';
import { useTranslateTitle } from '@/i18n';
import { flattenTree, menuForRole } from '../model/logic';
import { useSettingStyles } from '@/components/forms/ui';

/** Read-only: the menu tree a holder of the role gets (guards are edited in menu management). */
export function RoleMenuDialog({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const { t } = useTranslation();
  const tt = useTranslateTitle();
  const styles = useSettingStyles();
  const menus = useMenus(!!role);
  const rows = useMemo(
    () => (role && menus.data ? flattenTree(menuForRole(menus.data.list, role.role, role.permissions), (n: MenuNode) => n.name).filter((r) => !r.node.meta?.hidden) : []),
    [role, menus.data],
  );
  return (
    <Dialog open={!!role} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ maxWidth: '520px' }} data-testid="role-menu-dialog">
        <DialogBody>
          <DialogTitle>{t('set.role.menuTitle', { name: role?.role ?? '' })}</DialogTitle>
          <DialogContent>
            <Caption1 className={styles.muted}>{t('set.role.menuHint')}</Caption1>
            {menus.isLoading && <Spinner size="small" />}
            <ul style={{ listStyle: 'none', padding: 0, margin: '8px 0 0', maxHeight: '60vh', overflowY: 'auto' }}>
              {rows.map(({ node, depth }) => (
                <li key={node.name} className={styles.treeCell} style={{ paddingLeft: `${depth * 20}px`, lineHeight: '28px' }} data-menu-name={node.name}>
                  <RouteIcon name={node.meta?.icon} />
                  {tt(node.meta?.title) || node.name}
                </li>
              ))}
            </ul>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              {t('common.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
