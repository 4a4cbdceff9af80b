import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ColumnStyle } from '@/config';
import { RouteIcon } from '@/components/RouteIcon';
import { RouteTitle } from './RouteTitle';
import type { MenuNode } from './menu/menuModel';

const useStyles = makeStyles({
  bar: { display: 'flex', flexDirection: 'column', rowGap: '4px', padding: '8px 6px', overflowY: 'auto', flex: 1 },
  item: {
    position: 'relative',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    border: 'none',
    background: 'none',
    cursor: 'pointer',
    color: tokens.colorNeutralForeground2,
    borderRadius: tokens.borderRadiusMedium,
    padding: '8px 4px',
    fontSize: tokens.fontSizeBase200,
    ':hover': { color: tokens.colorNeutralForeground1, backgroundColor: tokens.colorSubtleBackgroundHover },
  },
  vertical: { flexDirection: 'column', rowGap: '4px', minHeight: '60px' },
  horizontal: { columnGap: '6px', justifyContent: 'flex-start', padding: '10px 8px' },
  card: { flexDirection: 'column', rowGap: '4px', minHeight: '60px', margin: '0 2px', borderRadius: tokens.borderRadiusLarge },
  arrow: { flexDirection: 'column', rowGap: '4px', minHeight: '60px', borderRadius: 0 },
  active: { color: tokens.colorNeutralForegroundOnBrand, backgroundColor: tokens.colorBrandBackground, ':hover': { color: tokens.colorNeutralForegroundOnBrand, backgroundColor: tokens.colorBrandBackgroundHover } },
  arrowActive: {
    '::after': {
      content: '""',
      position: 'absolute',
      right: '-6px',
      top: '50%',
      marginTop: '-6px',
      borderTop: '6px solid transparent',
      borderBottom: '6px solid transparent',
      borderRight: `6px solid ${tokens.colorNeutralBackground1}`,
    },
  },
  icon: { fontSize: '20px' },
  title: { maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

/** First column of the column layout: first-level routes in one of four styles. */
export function ColumnBar({
  nodes,
  selected,
  columnStyle,
  onSelect,
}: {
  nodes: MenuNode[];
  selected?: string;
  columnStyle: ColumnStyle;
  onSelect: (node: MenuNode) => void;
}) {
  const styles = useStyles();
  return (
    <nav className={styles.bar} data-testid="column-bar">
      {nodes.map((node) => {
        const active = node.route.path === selected;
        return (
          <button
            key={node.route.path}
            className={mergeClasses(styles.item, styles[columnStyle], active && styles.active, active && columnStyle === 'arrow' && styles.arrowActive)}
            onClick={() => onSelect(node)}
            data-menu-path={node.route.path}
          >
            <RouteIcon name={node.route.meta.icon} className={styles.icon} />
            <RouteTitle className={styles.title} title={node.route.meta.title} />
          </button>
        );
      })}
    </nav>
  );
}
