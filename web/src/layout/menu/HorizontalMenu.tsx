import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ChevronDownRegular } from '@fluentui/react-icons/svg/chevron-down';
import { RouteIcon } from '@/components/RouteIcon';
import { containsPath, type MenuNode } from './menuModel';
import { MenuLabel } from './MenuLabel';
import { PopupMenu } from './PopupMenu';
import { useMenuActivate } from './useMenuActivate';

const useStyles = makeStyles({
  bar: { display: 'flex', alignItems: 'stretch', height: '100%', overflowX: 'auto', overflowY: 'hidden', minWidth: 0, flex: 1 },
  item: {
    display: 'flex',
    alignItems: 'center',
    columnGap: '6px',
    padding: '0 10px',
    border: 'none',
    background: 'none',
    color: tokens.colorNeutralForeground2,
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    fontSize: tokens.fontSizeBase300,
    textDecorationLine: 'none',
    borderBottom: '2px solid transparent',
    ':hover': { color: tokens.colorNeutralForeground1, backgroundColor: tokens.colorSubtleBackgroundHover },
  },
  active: { color: tokens.colorBrandForeground1, borderBottomColor: tokens.colorBrandStroke1 },
  icon: { fontSize: '16px' },
});

/** Top menu (horizontal layout): first level in the bar, deeper levels in popups. */
export function HorizontalMenu({ nodes, activePath }: { nodes: MenuNode[]; activePath: string }) {
  const styles = useStyles();
  const activate = useMenuActivate();
  return (
    <nav className={styles.bar} data-testid="top-menu">
      {nodes.map((node) => {
        const cls = mergeClasses(styles.item, containsPath(node, activePath) && styles.active);
        const content = (
          <>
            <RouteIcon name={node.route.meta.icon} className={styles.icon} />
            <MenuLabel route={node.route} />
          </>
        );
        return node.children ? (
          <PopupMenu
            key={node.route.path}
            node={node}
            activePath={activePath}
            trigger={
              <button className={cls} data-menu-path={node.route.path}>
                {content}
                <ChevronDownRegular />
              </button>
            }
          />
        ) : (
          <a
            key={node.route.path}
            className={cls}
            href={`#${node.route.path}`}
            data-menu-path={node.route.path}
            onClick={(e) => {
              e.preventDefault();
              activate(node.route);
            }}
          >
            {content}
          </a>
        );
      })}
    </nav>
  );
}
