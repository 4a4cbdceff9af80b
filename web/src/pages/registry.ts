import { type ComponentType, type LazyExoticComponent } from 'react';
import { loadFeatureStrings } from './featureStrings';
import { prefetchOrderList } from '@/features/orders/model/firstData';
import { preloadable } from '@/utils/preloadable';

/**
 * The ONE map from route `component` keys (shared/backoffice/data/menu-routes.json,
 * the customer's keys: they never change) to the pages that show them, each
 * its own lazily loaded chunk. Keys whose page belongs to a later issue are
 * listed in PLANNED_VIEWS and show the honest "being built" page. A test checks
 * every key of the route data resolves to one or the other, and that every
 * page (a default export under pages/) is reachable from here or the router.
 */
type ViewModule = { default: ComponentType };
type LoadView = () => Promise<ViewModule>;

const PAGES: Record<string, LoadView> = {
  // Home
  'index/index': () => import('@/features/home/pages/Home'),
  // Orders
  'order/orderindex': () => import('@/features/orders/pages/OrderList'),
  'order/detail': () => import('@/features/orders/pages/OrderDetail'),
  // Stations, chargers and cards
  'connector/station': () => import('@/features/stations/pages/StationList'),
  'connector/stationdetail': () => import('@/features/stations/pages/StationDetail'),
  'connector/connectors': () => import('@/features/stations/pages/ConnectorList'),
  'connector/cards': () => import('@/features/stations/pages/ChargingCards'),
  'connector/messageLog': () => import('@/features/stations/pages/MessageLog'),
  'connector/securityEvents': () => import('@/features/stations/pages/SecurityEvents'),
  // Finance
  'money/moneyIndex': () => import('@/features/finance/pages/Finance'),
  // Notices (publishers)
  'notice/manage': () => import('@/features/notices/pages/NoticeManage'),
  // Settings
  'setting/workflow': () => import('@/features/settings/pages/OperationsSettings'),
  'setting/personalCenter': () => import('@/features/settings/pages/PersonalCenter'),
  'setting/userManagement': () => import('@/features/settings/pages/Users'),
  'setting/roleManagement': () => import('@/features/settings/pages/Roles'),
  'setting/departmentManagement': () => import('@/features/settings/pages/Departments'),
  'setting/menuManagement': () => import('@/features/settings/pages/Menus'),
  'setting/systemLog': () => import('@/features/settings/pages/SystemLog'),
  // Error pages
  'error/403': () => import('./shell/Forbidden'),
  'error/404': () => import('./shell/NotFound'),
  // The template's demo pages
  'index/dashboard': () => import('@/features/demo/pages/Dashboard'),
  'index/workbench': () => import('@/features/demo/pages/Workbench'),
  'vab/icon/remixIcon': () => import('@/features/demo/pages/icons/RemixIcons'),
  'vab/icon/iconSelector': () => import('@/features/demo/pages/icons/IconSelector'),
  'vab/permission/index': () => import('@/features/demo/pages/RolePermissions'),
  'vab/table/comprehensiveTable': () => import('@/features/demo/pages/tables/ComprehensiveTable'),
  'vab/table/detail': () => import('@/features/demo/pages/tables/TableItemDetail'),
  'vab/table/inlineEditTable': () => import('@/features/demo/pages/tables/InlineEditTable'),
  'vab/table/customTable': () => import('@/features/demo/pages/tables/CustomTable'),
  'vab/card/index': () => import('@/features/demo/pages/Cards'),
  'vab/list/index': () => import('@/features/demo/pages/ArticleList'),
  'vab/form/comprehensiveForm': () => import('@/features/demo/pages/forms/ComprehensiveForm'),
  'vab/form/stepForm': () => import('@/features/demo/pages/forms/StepForm'),
  'vab/form/button': () => import('@/features/demo/pages/forms/Buttons'),
  'vab/form/link': () => import('@/features/demo/pages/forms/Links'),
  'vab/form/radio': () => import('@/features/demo/pages/forms/Radios'),
  'vab/form/checkbox': () => import('@/features/demo/pages/forms/Checkboxes'),
  'vab/form/input': () => import('@/features/demo/pages/forms/Inputs'),
  'vab/form/inputNumber': () => import('@/features/demo/pages/forms/NumberInputs'),
  'vab/form/select': () => import('@/features/demo/pages/forms/Selects'),
  'vab/form/switch': () => import('@/features/demo/pages/forms/Switches'),
  'vab/form/slider': () => import('@/features/demo/pages/forms/Sliders'),
  'vab/form/timePicker': () => import('@/features/demo/pages/forms/TimePickers'),
  'vab/form/datePicker': () => import('@/features/demo/pages/forms/DatePickers'),
  'vab/form/dateTimePicker': () => import('@/features/demo/pages/forms/DateTimePickers'),
  'vab/form/rate': () => import('@/features/demo/pages/forms/Ratings'),
  'vab/editor/richTextEditor': () => import('@/features/demo/pages/editors/RichTextEditor'),
  'vab/editor/markdownEditor': () => import('@/features/demo/pages/editors/MarkdownEditor'),
  'other/workflow': () => import('@/features/demo/pages/WorkflowEditor'),
  'other/echarts': () => import('@/features/demo/pages/Charts'),
  'other/print': () => import('@/features/demo/pages/Print'),
  'other/cropper': () => import('@/features/demo/pages/AvatarCropper'),
  'other/notice': () => import('@/features/demo/pages/Notices'),
  'other/timeline': () => import('@/features/demo/pages/Timeline'),
  'other/count': () => import('@/features/demo/pages/CountUp'),
  'other/tabs': () => import('@/features/demo/pages/Tabs'),
  'other/dynamicMeta': () => import('@/features/demo/pages/routing/DynamicMeta'),
  'other/dynamicSegment/test1': () => import('@/features/demo/pages/routing/PathParameter'),
  'other/dynamicSegment/test2': () => import('@/features/demo/pages/routing/QueryParameter'),
  'other/nested/menu1-1-1-1': () => import('@/features/demo/pages/routing/NestedMenu'),
  'other/drag/dialogDrag': () => import('@/features/demo/pages/drag/DialogDrag'),
  'other/drag/cardDrag': () => import('@/features/demo/pages/drag/CardDrag'),
  'other/drag/flowSheetDrag': () => import('@/features/demo/pages/drag/FlowSheetDrag'),
  'other/contextmenu': () => import('@/features/demo/pages/ContextMenu'),
  'other/loading': () => import('@/features/demo/pages/Loading'),
  'other/player': () => import('@/features/demo/pages/MediaPlayer'),
  'other/upload': () => import('@/features/demo/pages/Upload'),
  'other/log': () => import('@/features/demo/pages/ErrorLogDemo'),
  'other/cssfx': () => import('@/features/demo/pages/CssEffects'),
  'other/social': () => import('@/features/demo/pages/SocialLoginInfo'),
  'other/iframe/view': () => import('@/features/demo/pages/iframe/IframeView'),
  'other/iframe/search': () => import('@/features/demo/pages/iframe/IframeSearch'),
  'other/excel/exportExcel': () => import('@/features/demo/pages/excel/ExportExcel'),
  'other/excel/exportSelectedExcel': () => import('@/features/demo/pages/excel/ExportSelectedRows'),
  'other/excel/exportMergeHeaderExcel': () => import('@/features/demo/pages/excel/ExportMergedHeader'),
  'mall/goods': () => import('@/features/demo/pages/Goods'),
};

/** Each view's code, with the areas' strings it shows (fetched in parallel). */
export const BUILT_VIEWS: Record<string, LoadView> = Object.fromEntries(
  Object.entries(PAGES).map(([key, load]) => [key, () => Promise.all([load(), loadFeatureStrings()]).then(([view]) => view)]),
);

/**
 * The first data call of the views that have one, keyed exactly as the
 * view will ask for it (started with the view's code on a cold load).
 */
const FIRST_DATA: Record<string, () => void> = {
  'order/orderindex': prefetchOrderList,
};

/** Starts the first data call of a view, when it has one. */
export function prefetchViewData(key: string): void {
  FIRST_DATA[key]?.();
}

/** Views of later issues: business pages, then the template's demo pages. */
export const PLANNED_VIEWS: readonly string[] = [];

export type ViewResolution = { kind: 'built' } | { kind: 'planned' } | { kind: 'missing' };

export function classifyView(key: string): ViewResolution {
  if (key in BUILT_VIEWS) return { kind: 'built' };
  if (PLANNED_VIEWS.includes(key)) return { kind: 'planned' };
  return { kind: 'missing' };
}

const views = new Map<string, ReturnType<typeof preloadable<ComponentType>>>();

function view(key: string) {
  const load = BUILT_VIEWS[key];
  if (!load) return null;
  let v = views.get(key);
  if (!v) {
    v = preloadable(load);
    views.set(key, v);
  }
  return v;
}

/** The lazily loaded component of a built view, or null. */
export function lazyView(key: string): LazyExoticComponent<ComponentType> | null {
  return view(key)?.Component ?? null;
}

/** After a failed load: the view's next render asks for its code again. */
export function retryView(key: string): void {
  const v = views.get(key);
  if (v) views.set(key, { ...v, Component: v.fresh() });
}

/** Starts loading a built view's code (and strings) before it is shown. */
export function preloadView(key: string): Promise<unknown> {
  return view(key)?.preload().catch(() => undefined) ?? Promise.resolve();
}
