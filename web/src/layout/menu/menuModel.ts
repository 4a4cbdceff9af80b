import { MENU_SCROLL_THRESHOLD } from '@/config';
import type { AppRoute } from '@/router/types';

export interface MenuNode {
  route: AppRoute;
  /** Visible children; present only when the node is a submenu. */
  children?: MenuNode[];
}

/**
 * The visible menu: hidden routes and the catch-all are skipped, a
 * levelHidden route shows its children in its place, a node with visible
 * children is a submenu, and a layout with no page to open is left out.
 */
export function menuTree(routes: AppRoute[]): MenuNode[] {
  return routes.flatMap((route): MenuNode[] => {
    if (route.meta.hidden || route.path === '*') return [];
    const children = route.children ? menuTree(route.children) : [];
    if (route.meta.levelHidden) return children;
    // A section left without pages (the server keeps a parent whose children its
    // role filter removed, as `children: []`) leads nowhere: no menu entry.
    if (!children.length && route.isLayout && !route.redirect) return [];
    return [children.length ? { route, children } : { route }];
  });
}

/** True when the node or one of its descendants is the active path. */
export function containsPath(node: MenuNode, path: string): boolean {
  if (node.route.path === path) return true;
  return !!node.children?.some((c) => containsPath(c, path));
}

/** Paths of the submenus leading to the active path (opened by default). */
export function openPathsFor(nodes: MenuNode[], path: string): string[] {
  for (const node of nodes) {
    if (node.children && containsPath(node, path)) return [node.route.path, ...openPathsFor(node.children, path)];
  }
  return [];
}

/** Horizontal menus and collapsed vertical ones scroll past 18 children. */
export const needsScroll = (count: number): boolean => count > MENU_SCROLL_THRESHOLD;

/** The top-level node that holds the path (column / comprehensive layouts). */
export const firstLevelOf = (nodes: MenuNode[], path: string): MenuNode | undefined => nodes.find((n) => containsPath(n, path));

/** The first leaf of a node, depth first (where a first-level tab navigates). */
export function firstLeaf(node: MenuNode): MenuNode {
  return node.children?.length ? firstLeaf(node.children.find((c) => !c.route.external) ?? node.children[0]) : node;
}

export type MenuAction =
  | { kind: 'open-window'; url: string }
  | { kind: 'location'; url: string }
  | { kind: 'reload' }
  | { kind: 'navigate'; path: string };

/**
 * What a click on a menu item does: target _blank opens a window
 * (external as is, internal with the hash prefix); an external link navigates
 * the window; the current route reloads; anything else is pushed.
 */
export function menuAction(route: AppRoute, currentPathname: string): MenuAction {
  if (route.meta.target === '_blank') {
    return { kind: 'open-window', url: route.external ? route.path : `#${route.path}` };
  }
  if (route.external) return { kind: 'location', url: route.path };
  if (route.path === currentPathname) return { kind: 'reload' };
  return { kind: 'navigate', path: route.path };
}
