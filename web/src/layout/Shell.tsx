import { FluentProvider, makeStyles, mergeClasses, Tab, TabList, tokens } from '@fluentui/react-components';
import { useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Navigate, useLocation } from 'react-router';
import { OPEN_FIRST_MENU } from '@/config';
import { RouteIcon } from '@/components/RouteIcon';
import { RouteTitle } from './RouteTitle';
import { resolveLocation } from '@/router/match';
import { routesStore } from '@/store/routes';
import { setCollapse, setExtraFirst, settingsStore } from '@/store/settings';
import { activeMenuPath, addTab, setTabs, tabsStore, toVisitedRoute, type VisitedRoute } from '@/store/tabs';
import { effectiveLayout } from '@/theme/rules';
import { menuBackground, menuTheme } from '@/theme/themes';
import { ColumnBar } from './ColumnBar';
import { Footer } from './Footer';
import { KeepAliveView } from './KeepAliveView';
import { Logo } from './Logo';
import { HorizontalMenu } from './menu/HorizontalMenu';
import { firstLeaf, firstLevelOf, menuTree, type MenuNode } from './menu/menuModel';
import { useMenuActivate } from './menu/useMenuActivate';
import { VerticalMenu } from './menu/VerticalMenu';
import { NavBar } from './NavBar';
import { TabsBar } from './TabsBar';
import { ThemeDrawer } from './ThemeDrawer';
import { ThemeSidePanel } from './ThemeSidePanel';
import { useDeviceWatcher } from './useDevice';
import { ViewErrorBoundary } from './ViewErrorBoundary';
import { HeaderTools } from '@/components/header/HeaderTools';

/** Decorative pattern of the 'vab-background' menu background. */
const PATTERN =
  "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='40' height='40'%3E%3Cpath d='M0 40L40 0M-10 10L10 -10M30 50L50 30' stroke='%23ffffff' stroke-opacity='0.07' stroke-width='6'/%3E%3C/svg%3E\")";

const useStyles = makeStyles({
  root: { display: 'flex', minHeight: '100vh', backgroundColor: tokens.colorNeutralBackground2 },
  column: { display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0 },
  sidebar: {
    position: 'sticky',
    top: 0,
    height: '100vh',
    display: 'flex',
    flexDirection: 'column',
    flexShrink: 0,
    width: '240px',
    transitionProperty: 'width, transform',
    transitionDuration: '0.2s',
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    zIndex: 20,
  },
  sidebarBelowHeader: { top: '56px', height: 'calc(100vh - 56px)' },
  sidebarCollapsed: { width: '64px' },
  sidebarFloat: { width: '96px', margin: '12px 0 12px 12px', height: 'calc(100vh - 24px)', top: '12px', borderRadius: tokens.borderRadiusXLarge, boxShadow: tokens.shadow16, border: 'none', overflow: 'hidden' },
  sidebarMobile: { position: 'fixed', left: 0, top: 0, height: '100vh', width: '240px', boxShadow: tokens.shadow28 },
  sidebarMobileHidden: { transform: 'translateX(-100%)', boxShadow: 'none' },
  backdrop: { position: 'fixed', inset: 0, backgroundColor: 'rgba(0,0,0,0.35)', zIndex: 15 },
  menuScroll: { flex: 1, overflowY: 'auto', overflowX: 'hidden', paddingBottom: '12px' },
  secondPanel: { width: '220px', display: 'flex', flexDirection: 'column', borderRight: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1 },
  secondTitle: { height: '56px', display: 'flex', alignItems: 'center', padding: '0 20px', fontWeight: tokens.fontWeightSemibold, borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, whiteSpace: 'nowrap', overflow: 'hidden' },
  columnFirst: { width: '84px', display: 'flex', flexDirection: 'column' },
  topHeader: { position: 'sticky', top: 0, zIndex: 30, display: 'flex', alignItems: 'center', height: '56px', columnGap: '8px', padding: '0 12px 0 0', borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  stack: { display: 'flex', flexDirection: 'column', minHeight: '100vh', flex: 1, minWidth: 0 },
  row: { display: 'flex', flex: 1, minHeight: 0 },
  fixed: { position: 'sticky', top: 0, zIndex: 10 },
  fixedBelowHeader: { top: '56px' },
  main: { flex: 1, padding: '16px', minWidth: 0 },
  viewsSlot: { display: 'contents' },
  firstTabs: { flex: 1, minWidth: 0, overflowX: 'auto' },
  spacer: { flex: 1 },
});

function sameTabs(a: VisitedRoute[], b: VisitedRoute[]): boolean {
  return a.length === b.length && a.every((t, i) => t.path === b[i].path && t.fullPath === b[i].fullPath && !!t.meta.noClosable === !!b[i].meta.noClosable);
}

/**
 * Where the views show in the frame. The frame's shape follows the layout
 * (a phone always gets the vertical one), and React remounts what changes
 * place in the tree; so the views render once, into a node of their own
 * that each frame adopts here. Choosing another layout, or a window
 * crossing the phone width, keeps every open tab's state.
 */
function ViewsSlot({ host }: { host: HTMLElement }) {
  const styles = useStyles();
  const slot = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const here = slot.current!;
    here.appendChild(host);
    return () => {
      if (host.parentNode === here) here.removeChild(host);
    };
  }, [host]);
  return <div ref={slot} className={styles.viewsSlot} />;
}

function newViewsHost(): HTMLElement {
  const host = document.createElement('div');
  host.style.display = 'contents';
  return host;
}

/** The main layout shell: six layouts, menus, breadcrumb, tabs, kept-alive views. */
export default function Shell() {
  useDeviceWatcher();
  const styles = useStyles();
  const [viewsHost] = useState(newViewsHost);
  const location = useLocation();
  const activate = useMenuActivate();
  const routes = routesStore.use((s) => s.routes);
  const forbidden = routesStore.use((s) => s.forbidden);
  const tabs = tabsStore.use((s) => s.tabs);
  const theme = settingsStore.use((s) => s.theme);
  const device = settingsStore.use((s) => s.device);
  const collapse = settingsStore.use((s) => s.collapse);
  const extraFirst = settingsStore.use((s) => s.extraFirst);
  const nodes = useMemo(() => menuTree(routes), [routes]);

  const resolution = resolveLocation(routes, location.pathname, forbidden);
  const current = resolution.kind === 'view' ? toVisitedRoute(resolution.route, resolution.match, location.pathname, location.search) : null;
  const shownTabs = current ? addTab(tabs, current) : tabs;

  // Record the visit once per location. Only on location change: a close
  // operation updates the tabs before its navigation lands, and re-adding
  // the still-current route then would undo the close.
  const currentKey = current ? `${current.path}\n${current.fullPath}` : '';
  const recordVisit = useEffectEvent(() => {
    if (!current) return;
    const next = addTab(tabsStore.get().tabs, current);
    if (!sameTabs(next, tabsStore.get().tabs)) setTabs(next);
  });
  useEffect(() => {
    recordVisit();
  }, [currentKey]);

  if (resolution.kind === 'redirect' || !current) return <Navigate to={resolution.kind === 'redirect' ? resolution.to : '/404'} replace />;

  const chain = resolution.match.chain;
  const activePath = activeMenuPath(current.meta, location.pathname);
  const layout = effectiveLayout(theme.layout, device);
  const mobile = device === 'mobile';
  const first = firstLevelOf(nodes, activePath) ?? nodes.find((n) => n.route.path === extraFirst);
  // Menu background is disabled for float and horizontal layouts.
  const pattern = theme.background === 'vab-background' && layout !== 'float' && layout !== 'horizontal' ? PATTERN : undefined;
  // The surface's own classes (a 56 px sticky bar, a sidebar) must not reach
  // the portals its menus and popovers open in: Fluent copies a provider's
  // classes onto them by default, and the header then vanished under a
  // white bar of its own height while a header menu was open. The portals
  // keep the surface's theme tokens.
  const menuSurface = (children: ReactNode, className?: string, testId?: string) => (
    <FluentProvider
      theme={menuTheme(theme.themeName)}
      applyStylesToPortals={false}
      className={className}
      data-testid={testId}
      style={{ background: [pattern, menuBackground(theme.themeName)].filter(Boolean).join(', ') }}
    >
      {children}
    </FluentProvider>
  );

  const selectFirst = (node: MenuNode) => {
    setExtraFirst(node.route.path);
    if (!node.children) activate(node.route);
    else if (OPEN_FIRST_MENU) activate(firstLeaf(node).route);
  };

  const header = (withFold: boolean, withTools: boolean, belowTop = false) => (
    <div className={mergeClasses(theme.fixedHeader || layout === 'common' ? styles.fixed : undefined, belowTop && styles.fixedBelowHeader)}>
      <NavBar chain={chain} showFold={withFold} showTools={withTools} />
      {theme.showTabs && <TabsBar tabs={shownTabs} activePath={current.path} barStyle={theme.tabsBarStyle} showIcon={theme.showTabsIcon} />}
    </div>
  );

  const views = (
    <main className={styles.main} data-testid="app-main">
      {/* Each tab has its own boundary; this one only guards the keep-alive machinery itself. */}
      <ViewErrorBoundary resetKey={current.fullPath}>
        <KeepAliveView routes={routes} tabs={shownTabs} current={current} />
      </ViewErrorBoundary>
    </main>
  );
  const content = (
    <>
      <ViewsSlot host={viewsHost} />
      <Footer />
    </>
  );

  let frame: ReactNode;
  switch (layout) {
    case 'horizontal':
      frame = (
        <div className={styles.stack} data-layout="horizontal">
          {menuSurface(
            <>
              <Logo />
              <HorizontalMenu nodes={nodes} activePath={activePath} />
              <HeaderTools />
            </>,
            styles.topHeader,
            'top-header',
          )}
          <div className={mergeClasses(theme.fixedHeader && styles.fixed, theme.fixedHeader && styles.fixedBelowHeader)}>
            {theme.showTabs && <TabsBar tabs={shownTabs} activePath={current.path} barStyle={theme.tabsBarStyle} showIcon={theme.showTabsIcon} />}
          </div>
          {content}
        </div>
      );
      break;
    case 'common':
    case 'comprehensive': {
      const sideNodes = layout === 'comprehensive' ? (first?.children ?? (first ? [first] : [])) : nodes;
      frame = (
        <div className={styles.stack} data-layout={layout}>
          {menuSurface(
            <>
              <Logo />
              {layout === 'comprehensive' ? (
                <TabList
                  className={styles.firstTabs}
                  selectedValue={first?.route.path}
                  onTabSelect={(_, d) => {
                    const node = nodes.find((n) => n.route.path === d.value);
                    if (node) selectFirst(node);
                  }}
                  data-testid="first-level-tabs"
                >
                  {nodes.map((n) => (
                    <Tab key={n.route.path} value={n.route.path} icon={<RouteIcon name={n.route.meta.icon} />}>
                      <RouteTitle title={n.route.meta.title} />
                    </Tab>
                  ))}
                </TabList>
              ) : (
                <div className={styles.spacer} />
              )}
              <HeaderTools />
            </>,
            styles.topHeader,
            'top-header',
          )}
          <div className={styles.row}>
            {menuSurface(
              <div className={styles.menuScroll}>
                <VerticalMenu nodes={sideNodes} activePath={activePath} collapsed={collapse} />
              </div>,
              mergeClasses(styles.sidebar, styles.sidebarBelowHeader, collapse && styles.sidebarCollapsed),
              'sidebar',
            )}
            <div className={styles.column}>
              {header(true, false, true)}
              {content}
            </div>
          </div>
        </div>
      );
      break;
    }
    case 'column': {
      frame = (
        <div className={styles.root} data-layout="column">
          {menuSurface(
            <>
              <Logo showTitle={false} />
              <ColumnBar nodes={nodes} selected={first?.route.path} columnStyle={theme.columnStyle} onSelect={selectFirst} />
            </>,
            mergeClasses(styles.sidebar, styles.columnFirst),
            'sidebar',
          )}
          {!collapse && first?.children && (
            <aside className={mergeClasses(styles.sidebar, styles.secondPanel)} data-testid="second-panel">
              <RouteTitle className={styles.secondTitle} title={first.route.meta.title} />
              <div className={styles.menuScroll}>
                <VerticalMenu nodes={first.children} activePath={activePath} />
              </div>
            </aside>
          )}
          <div className={styles.column}>
            {header(true, true)}
            {content}
          </div>
        </div>
      );
      break;
    }
    default: {
      // vertical and float (and every layout on mobile)
      const floating = layout === 'float';
      const hiddenOnMobile = mobile && collapse;
      frame = (
        <div className={styles.root} data-layout={layout}>
          {mobile && !collapse && <div className={styles.backdrop} onClick={() => setCollapse(true)} data-testid="mobile-backdrop" />}
          {menuSurface(
            <>
              <Logo showTitle={!floating && (mobile || !collapse)} />
              <div className={styles.menuScroll}>
                <VerticalMenu nodes={nodes} activePath={activePath} collapsed={!mobile && !floating && collapse} floating={floating} />
              </div>
            </>,
            mergeClasses(
              styles.sidebar,
              !mobile && !floating && collapse && styles.sidebarCollapsed,
              floating && styles.sidebarFloat,
              mobile && styles.sidebarMobile,
              hiddenOnMobile && styles.sidebarMobileHidden,
            ),
            'sidebar',
          )}
          <div className={styles.column}>
            {header(!floating || mobile, true)}
            {content}
          </div>
        </div>
      );
    }
  }

  return (
    <>
      {frame}
      {createPortal(views, viewsHost)}
      <ThemeDrawer />
      {theme.showThemeSetting && !mobile && <ThemeSidePanel />}
    </>
  );
}
