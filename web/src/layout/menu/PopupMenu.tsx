import { Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactElement } from 'react';
import { RouteIcon } from '@/components/RouteIcon';
import type { MenuNode } from './menuModel';
import { needsScroll } from './menuModel';
import { MenuLabel } from './MenuLabel';
import { useMenuActivate } from './useMenuActivate';

const useStyles = makeStyles({
  scroll: { maxHeight: '60vh', overflowY: 'auto' },
  active: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  item: { minWidth: '180px' },
});

function Items({ nodes, activePath }: { nodes: MenuNode[]; activePath: string }) {
  const styles = useStyles();
  const activate = useMenuActivate();
  return (
    <>
      {nodes.map((node) =>
        node.children ? (
          <Menu key={node.route.path} openOnHover hoverDelay={100} positioning="after-top">
            <MenuTrigger disableButtonEnhancement>
              <MenuItem className={styles.item} icon={<RouteIcon name={node.route.meta.icon} />}>
                <MenuLabel route={node.route} />
              </MenuItem>
            </MenuTrigger>
            <MenuPopover>
              <MenuList className={needsScroll(node.children.length) ? styles.scroll : undefined}>
                <Items nodes={node.children} activePath={activePath} />
              </MenuList>
            </MenuPopover>
          </Menu>
        ) : (
          <MenuItem
            key={node.route.path}
            className={node.route.path === activePath ? `${styles.item} ${styles.active}` : styles.item}
            icon={<RouteIcon name={node.route.meta.icon} />}
            onClick={() => activate(node.route)}
          >
            <MenuLabel route={node.route} />
          </MenuItem>
        ),
      )}
    </>
  );
}

/**
 * A submenu as a popup (horizontal menu, collapsed or floating sidebar):
 * nested levels open to the side; long lists (> 18) scroll.
 */
export function PopupMenu({
  node,
  activePath,
  trigger,
  positioning = 'below-start',
}: {
  node: MenuNode;
  activePath: string;
  trigger: ReactElement;
  positioning?: 'below-start' | 'after-top';
}) {
  const styles = useStyles();
  const children = node.children ?? [];
  return (
    <Menu openOnHover hoverDelay={120} positioning={positioning}>
      <MenuTrigger disableButtonEnhancement>{trigger}</MenuTrigger>
      <MenuPopover>
        <MenuList className={needsScroll(children.length) ? styles.scroll : undefined} data-testid="popup-menu">
          <Items nodes={children} activePath={activePath} />
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
