import { makeStyles, mergeClasses, tokens, Tooltip } from '@fluentui/react-components';
import { ChevronDownRegular } from '@fluentui/react-icons/svg/chevron-down';
import { useEffect, useState, type MouseEvent } from 'react';
import { RouteIcon } from '@/components/RouteIcon';
import { useTranslateTitle } from '@/i18n';
import { RouteTitle } from '@/layout/RouteTitle';
import { containsPath, needsScroll, openPathsFor, type MenuNode } from './menuModel';
import { MenuLabel } from './MenuLabel';
import { PopupMenu } from './PopupMenu';
import { useMenuActivate } from './useMenuActivate';

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0 },
  item: {
    display: 'flex',
    alignItems: 'center',
    columnGap: '10px',
    height: '44px',
    paddingRight: '16px',
    margin: '2px 8px',
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground2,
    textDecorationLine: 'none',
    cursor: 'pointer',
    fontSize: tokens.fontSizeBase300,
    border: 'none',
    background: 'none',
    width: 'calc(100% - 16px)',
    boxSizing: 'border-box',
    textAlign: 'left',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover, color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  icon: { fontSize: '18px', flexShrink: 0 },
  active: {
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorBrandBackgroundHover, color: tokens.colorNeutralForegroundOnBrand },
  },
  parentActive: { color: tokens.colorBrandForeground1 },
  chevron: { transitionProperty: 'transform', transitionDuration: '0.2s', flexShrink: 0 },
  chevronOpen: { transform: 'rotate(180deg)' },
  collapsedItem: { justifyContent: 'center', paddingRight: 0, paddingLeft: 0, position: 'relative' },
  floatItem: {
    flexDirection: 'column',
    height: '64px',
    justifyContent: 'center',
    rowGap: '4px',
    paddingRight: 0,
    paddingLeft: 0,
    fontSize: tokens.fontSizeBase100,
    textAlign: 'center',
  },
  floatTitle: { maxWidth: '72px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  scroll: { maxHeight: '70vh', overflowY: 'auto' },
});

interface Props {
  nodes: MenuNode[];
  activePath: string;
  /** icons only with popup submenus */
  collapsed?: boolean;
  /** float layout: icon above a short title, popup submenus */
  floating?: boolean;
}

/** The sidebar menu: an expandable tree, or icons with popup submenus when collapsed/floating. */
export function VerticalMenu({ nodes, activePath, collapsed, floating }: Props) {
  const styles = useStyles();
  const activate = useMenuActivate();
  const translate = useTranslateTitle();
  const [open, setOpen] = useState<Set<string>>(() => new Set(openPathsFor(nodes, activePath)));

  // Open the branch of the active route when it changes (navigation from tabs, search...).
  useEffect(() => {
    setOpen((prev) => new Set([...prev, ...openPathsFor(nodes, activePath)]));
  }, [nodes, activePath]);

  const toggle = (path: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  const onLeaf = (e: MouseEvent, node: MenuNode) => {
    e.preventDefault();
    activate(node.route);
  };

  if (collapsed || floating) {
    return (
      <ul className={mergeClasses(styles.list, needsScroll(nodes.length) && styles.scroll)} data-testid="side-menu">
        {nodes.map((node) => {
          const active = containsPath(node, activePath);
          const cls = mergeClasses(styles.item, floating ? styles.floatItem : styles.collapsedItem, active && styles.active);
          const content = (
            <>
              <RouteIcon name={node.route.meta.icon} className={styles.icon} />
              {floating && <RouteTitle className={styles.floatTitle} title={node.route.meta.title} />}
            </>
          );
          return (
            <li key={node.route.path}>
              {node.children ? (
                <PopupMenu
                  node={node}
                  activePath={activePath}
                  positioning="after-top"
                  trigger={
                    <button className={cls} aria-label={translate(node.route.meta.title)} data-menu-path={node.route.path}>
                      {content}
                    </button>
                  }
                />
              ) : (
                <Tooltip content={translate(node.route.meta.title)} relationship="label" positioning="after">
                  <a className={cls} href={`#${node.route.path}`} onClick={(e) => onLeaf(e, node)} data-menu-path={node.route.path}>
                    {content}
                  </a>
                </Tooltip>
              )}
            </li>
          );
        })}
      </ul>
    );
  }

  const renderNodes = (list: MenuNode[], depth: number) => (
    <ul className={styles.list} role={depth === 0 ? 'tree' : 'group'}>
      {list.map((node) => {
        const pad = { paddingLeft: `${16 + depth * 18}px` };
        if (node.children) {
          const isOpen = open.has(node.route.path);
          const holdsActive = containsPath(node, activePath);
          return (
            <li key={node.route.path} role="treeitem" aria-expanded={isOpen}>
              <button
                className={mergeClasses(styles.item, holdsActive && styles.parentActive)}
                style={pad}
                onClick={() => toggle(node.route.path)}
                data-menu-path={node.route.path}
              >
                <RouteIcon name={node.route.meta.icon} className={styles.icon} />
                <MenuLabel route={node.route} />
                <ChevronDownRegular className={mergeClasses(styles.chevron, isOpen && styles.chevronOpen)} />
              </button>
              {isOpen && renderNodes(node.children, depth + 1)}
            </li>
          );
        }
        const active = node.route.path === activePath;
        return (
          <li key={node.route.path} role="treeitem" aria-selected={active}>
            <a
              className={mergeClasses(styles.item, active && styles.active)}
              style={pad}
              href={node.route.external ? node.route.path : `#${node.route.path}`}
              onClick={(e) => onLeaf(e, node)}
              data-menu-path={node.route.path}
              aria-current={active ? 'page' : undefined}
            >
              <RouteIcon name={node.route.meta.icon} className={styles.icon} />
              <MenuLabel route={node.route} />
            </a>
          </li>
        );
      })}
    </ul>
  );

  return <nav data-testid="side-menu">{renderNodes(nodes, 0)}</nav>;
}
