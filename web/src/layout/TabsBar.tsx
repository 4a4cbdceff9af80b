import {
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  makeStyles,
  mergeClasses,
  tokens,
  type PositioningImperativeRef,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons/svg/dismiss';
import { ChevronDownRegular } from '@fluentui/react-icons/svg/chevron-down';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TabsBarStyle } from '@/config';
import { RouteIcon } from '@/components/RouteIcon';
import { RouteTitle } from './RouteTitle';
import {
  closeAll,
  closeLeft,
  closeOthers,
  closeRight,
  closeTab,
  lastTabPath,
  setTabs,
  tabLabelsStore,
  tabsStore,
  type VisitedRoute,
} from '@/store/tabs';
import { reloadCurrentView } from './menu/useMenuActivate';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    alignItems: 'center',
    columnGap: '8px',
    height: '44px',
    padding: '0 12px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  list: { display: 'flex', alignItems: 'center', columnGap: '6px', flex: 1, minWidth: 0, overflowX: 'auto', scrollbarWidth: 'none', height: '100%' },
  tab: {
    display: 'inline-flex',
    alignItems: 'center',
    columnGap: '6px',
    height: '32px',
    padding: '0 12px',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground2,
    border: `1px solid transparent`,
    background: 'none',
    flexShrink: 0,
    userSelect: 'none',
    ':hover': { color: tokens.colorBrandForeground1 },
  },
  card: { border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  cardActive: { backgroundColor: tokens.colorBrandBackground, borderTopColor: tokens.colorBrandBackground, borderRightColor: tokens.colorBrandBackground, borderBottomColor: tokens.colorBrandBackground, borderLeftColor: tokens.colorBrandBackground, color: tokens.colorNeutralForegroundOnBrand, ':hover': { color: tokens.colorNeutralForegroundOnBrand } },
  smart: { borderRadius: 0, borderBottom: '2px solid transparent' },
  smartActive: { color: tokens.colorBrandForeground1, borderBottomColor: tokens.colorBrandStroke1, backgroundColor: tokens.colorBrandBackground2 },
  smooth: { borderRadius: '16px 16px 0 0', height: '36px', alignSelf: 'flex-end' },
  smoothActive: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorBrandForeground1 },
  close: {
    display: 'inline-flex',
    borderRadius: '50%',
    padding: '1px',
    fontSize: '12px',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Pressed, color: tokens.colorNeutralForeground1 },
  },
  icon: { fontSize: '14px' },
});

const ACTIVE: Record<TabsBarStyle, 'cardActive' | 'smartActive' | 'smoothActive'> = { card: 'cardActive', smart: 'smartActive', smooth: 'smoothActive' };

/**
 * Per-instance tabs share a title: the label their view gave ("站点设置 (中关村充电站)")
 * or else their query values tell them apart ("订单详情 (1)").
 */
function tabLabel(tab: VisitedRoute, label: string | undefined): string | undefined {
  if (tab.meta.dynamicNewTab && label) return label;
  const values = Object.values(tab.query).filter(Boolean);
  return tab.meta.dynamicNewTab && values.length ? values.join(', ') : undefined;
}

interface Props {
  tabs: VisitedRoute[];
  activePath: string;
  barStyle: TabsBarStyle;
  showIcon: boolean;
}

/** Visited-tab bar (non-closable tabs stay): click, close one/others/left/right/all, context menu. */
export function TabsBar({ tabs, activePath, barStyle, showIcon }: Props) {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const labels = tabLabelsStore.use((s) => s.labels);
  const [menuFor, setMenuFor] = useState<VisitedRoute | null>(null);
  const positioningRef = useRef<PositioningImperativeRef>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const active = tabs.find((tab) => tab.path === activePath);

  useEffect(() => {
    listRef.current?.querySelector('[data-active="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [activePath]);

  /** Applies a close operation, then leaves the active tab if it is gone. */
  function apply(next: VisitedRoute[], goTo?: VisitedRoute) {
    const current = tabsStore.get().tabs;
    if (next.length === current.length && !goTo) return;
    setTabs(next);
    if (goTo && goTo.path !== activePath) navigate(goTo.fullPath);
    else if (!next.some((tab) => tab.path === activePath)) navigate(lastTabPath(next));
  }

  const onClick = (tab: VisitedRoute) => {
    if (tab.path === activePath) reloadCurrentView(tab.fullPath);
    else navigate(tab.fullPath);
  };

  const onClose = (e: MouseEvent, tab: VisitedRoute) => {
    e.stopPropagation();
    apply(closeTab(tabsStore.get().tabs, tab.path));
  };

  const onContext = (e: MouseEvent, tab: VisitedRoute) => {
    e.preventDefault();
    positioningRef.current?.setTarget({
      getBoundingClientRect: () => ({ x: e.clientX, y: e.clientY, top: e.clientY, left: e.clientX, bottom: e.clientY, right: e.clientX, width: 0, height: 0 }) as DOMRect,
    });
    setMenuFor(tab);
  };

  const actions = (tab: VisitedRoute | undefined) => {
    const all = tabsStore.get().tabs;
    if (!tab) return null;
    return (
      <MenuList>
        <MenuItem icon={<ArrowClockwiseRegular />} onClick={() => (tab.path === activePath ? reloadCurrentView(tab.fullPath) : navigate(tab.fullPath))}>
          {t('tabs.refresh')}
        </MenuItem>
        <MenuItem disabled={!!tab.meta.noClosable} onClick={() => apply(closeTab(all, tab.path))}>
          {t('tabs.close')}
        </MenuItem>
        <MenuItem data-testid="tabs-close-others" onClick={() => apply(closeOthers(all, tab.path), tab)}>
          {t('tabs.closeOthers')}
        </MenuItem>
        <MenuItem onClick={() => apply(closeLeft(all, tab.path), tab)}>{t('tabs.closeLeft')}</MenuItem>
        <MenuItem onClick={() => apply(closeRight(all, tab.path), tab)}>{t('tabs.closeRight')}</MenuItem>
        <MenuItem data-testid="tabs-close-all" onClick={() => apply(closeAll(all))}>
          {t('tabs.closeAll')}
        </MenuItem>
      </MenuList>
    );
  };

  return (
    <div className={styles.bar} data-testid="tabs-bar">
      <div className={styles.list} ref={listRef} role="tablist">
        {tabs.map((tab) => {
          const isActive = tab.path === activePath;
          return (
            <div
              key={tab.path}
              role="tab"
              tabIndex={0}
              aria-selected={isActive}
              data-active={isActive}
              data-tab-path={tab.path}
              title={tab.fullPath}
              className={mergeClasses(styles.tab, styles[barStyle], isActive && styles[ACTIVE[barStyle]])}
              onClick={() => onClick(tab)}
              onKeyDown={(e) => e.key === 'Enter' && onClick(tab)}
              onContextMenu={(e) => onContext(e, tab)}
            >
              {showIcon && <RouteIcon name={tab.meta.icon || tab.parentIcon} className={styles.icon} />}
              <span>
                <RouteTitle title={tab.meta.title} />
                {/* What tells two tabs of one page apart is data (a station's name, an order number). */}
                {tabLabel(tab, labels[tab.path]) && <span translate="no">{` (${tabLabel(tab, labels[tab.path])})`}</span>}
              </span>
              {!tab.meta.noClosable && (
                <span className={styles.close} role="button" aria-label={t('tabs.close')} data-testid="tab-close" onClick={(e) => onClose(e, tab)}>
                  <DismissRegular />
                </span>
              )}
            </div>
          );
        })}
      </div>
      <Menu positioning={{ positioningRef }} open={!!menuFor} onOpenChange={(_, d) => !d.open && setMenuFor(null)}>
        <MenuPopover>{actions(menuFor ?? undefined)}</MenuPopover>
      </Menu>
      <Menu positioning="below-end">
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="subtle" size="small" icon={<ChevronDownRegular />} aria-label={t('tabs.more')} data-testid="tabs-more" />
        </MenuTrigger>
        <MenuPopover>{actions(active)}</MenuPopover>
      </Menu>
    </div>
  );
}
