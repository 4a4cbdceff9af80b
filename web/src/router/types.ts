import type { Schema } from '@/api/types';

/** Route shapes: `RawRoute` as served by /router/getList, `AppRoute` once built. */

export type GuardMode = 'oneOf' | 'allOf' | 'except';

/** A route guard / permission requirement: a list of names (any one passes) or {role, permission, mode}, each one name or a list. */
export type Guard = NonNullable<Schema<'RouteNode'>['meta']['guard']>;

export interface RouteMeta {
  title: string;
  icon?: string;
  isCustomSvg?: boolean;
  hidden?: boolean;
  levelHidden?: boolean;
  noClosable?: boolean;
  dynamicNewTab?: boolean;
  badge?: string | number;
  dot?: boolean;
  activeMenu?: string;
  guard?: Guard;
  noKeepAlive?: boolean;
  tabHidden?: boolean;
  breadcrumbHidden?: boolean;
  target?: string;
}

export type RawRoute = Schema<'RouteNode'>;

export interface AppRoute {
  /** Absolute path ('/vab/table/comprehensiveTable'), '*' or an external URL. */
  path: string;
  name: string;
  /** View key ('vab/table/comprehensiveTable'); undefined for layouts and links. */
  component?: string;
  /** Layout parents render their children (the 'Layout' keyword). */
  isLayout: boolean;
  external: boolean;
  /** Absolute redirect target, if any. */
  redirect?: string;
  meta: RouteMeta;
  children?: AppRoute[];
}

export interface Acl {
  admin: boolean;
  role: string[];
  permission: string[];
}
