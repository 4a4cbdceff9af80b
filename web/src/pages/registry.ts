import { type ComponentType, type LazyExoticComponent } from 'react';
import { loadAreaStrings } from '@/i18n';
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
  'index/index': () => import('./home/Home'),
  // Orders
  'order/orderindex': () => import('./orders/OrderList'),
  'order/detail': () => import('./orders/OrderDetail'),
  // Stations, chargers and cards
  'connector/station': () => import('./stations/StationList'),
  'connector/stationdetail': () => import('./stations/StationDetail'),
  'connector/connectors': () => import('./stations/ConnectorList'),
  'connector/cards': () => import('./stations/ChargingCards'),
  'connector/messageLog': () => import('./stations/MessageLog'),
  // Finance
  'money/moneyIndex': () => import('./finance/Finance'),
  // Notices (publishers)
  'notice/manage': () => import('./notices/NoticeManage'),
  // Settings
  'setting/workflow': () => import('./settings/OperationsSettings'),
  'setting/personalCenter': () => import('./settings/PersonalCenter'),
  'setting/userManagement': () => import('./settings/Users'),
  'setting/roleManagement': () => import('./settings/Roles'),
  'setting/departmentManagement': () => import('./settings/Departments'),
  'setting/menuManagement': () => import('./settings/Menus'),
  'setting/systemLog': () => import('./settings/SystemLog'),
  // Error pages
  'error/403': () => import('./shell/Forbidden'),
  'error/404': () => import('./shell/NotFound'),
  // The template's demo pages
  'index/dashboard': () => import('./demo/Dashboard'),
  'index/workbench': () => import('./demo/Workbench'),
  'vab/icon/remixIcon': () => import('./demo/icons/RemixIcons'),
  'vab/icon/iconSelector': () => import('./demo/icons/IconSelector'),
  'vab/permission/index': () => import('./demo/RolePermissions'),
  'vab/table/comprehensiveTable': () => import('./demo/tables/ComprehensiveTable'),
  'vab/table/detail': () => import('./demo/tables/TableItemDetail'),
  'vab/table/inlineEditTable': () => import('./demo/tables/InlineEditTable'),
  'vab/table/customTable': () => import('./demo/tables/CustomTable'),
  'vab/card/index': () => import('./demo/Cards'),
  'vab/list/index': () => import('./demo/ArticleList'),
  'vab/form/comprehensiveForm': () => import('./demo/forms/ComprehensiveForm'),
  'vab/form/stepForm': () => import('./demo/forms/StepForm'),
  'vab/form/button': () => import('./demo/forms/Buttons'),
  'vab/form/link': () => import('./demo/forms/Links'),
  'vab/form/radio': () => import('./demo/forms/Radios'),
  'vab/form/checkbox': () => import('./demo/forms/Checkboxes'),
  'vab/form/input': () => import('./demo/forms/Inputs'),
  'vab/form/inputNumber': () => import('./demo/forms/NumberInputs'),
  'vab/form/select': () => import('./demo/forms/Selects'),
  'vab/form/switch': () => import('./demo/forms/Switches'),
  'vab/form/slider': () => import('./demo/forms/Sliders'),
  'vab/form/timePicker': () => import('./demo/forms/TimePickers'),
  'vab/form/datePicker': () => import('./demo/forms/DatePickers'),
  'vab/form/dateTimePicker': () => import('./demo/forms/DateTimePickers'),
  'vab/form/rate': () => import('./demo/forms/Ratings'),
  'vab/editor/richTextEditor': () => import('./demo/editors/RichTextEditor'),
  'vab/editor/markdownEditor': () => import('./demo/editors/MarkdownEditor'),
  'other/workflow': () => import('./demo/WorkflowEditor'),
  'other/echarts': () => import('./demo/Charts'),
  'other/print': () => import('./demo/Print'),
  'other/cropper': () => import('./demo/AvatarCropper'),
  'other/notice': () => import('./demo/Notices'),
  'other/timeline': () => import('./demo/Timeline'),
  'other/count': () => import('./demo/CountUp'),
  'other/tabs': () => import('./demo/Tabs'),
  'other/dynamicMeta': () => import('./demo/routing/DynamicMeta'),
  'other/dynamicSegment/test1': () => import('./demo/routing/PathParameter'),
  'other/dynamicSegment/test2': () => import('./demo/routing/QueryParameter'),
  'other/nested/menu1-1-1-1': () => import('./demo/routing/NestedMenu'),
  'other/drag/dialogDrag': () => import('./demo/drag/DialogDrag'),
  'other/drag/cardDrag': () => import('./demo/drag/CardDrag'),
  'other/drag/flowSheetDrag': () => import('./demo/drag/FlowSheetDrag'),
  'other/contextmenu': () => import('./demo/ContextMenu'),
  'other/loading': () => import('./demo/Loading'),
  'other/player': () => import('./demo/MediaPlayer'),
  'other/upload': () => import('./demo/Upload'),
  'other/log': () => import('./demo/ErrorLogDemo'),
  'other/cssfx': () => import('./demo/CssEffects'),
  'other/social': () => import('./demo/SocialLoginInfo'),
  'other/iframe/view': () => import('./demo/iframe/IframeView'),
  'other/iframe/search': () => import('./demo/iframe/IframeSearch'),
  'other/excel/exportExcel': () => import('./demo/excel/ExportExcel'),
  'other/excel/exportSelectedExcel': () => import('./demo/excel/ExportSelectedRows'),
  'other/excel/exportMergeHeaderExcel': () => import('./demo/excel/ExportMergedHeader'),
  'mall/goods': () => import('./demo/Goods'),
};

/** Each view's code, with the areas' strings it shows (fetched in parallel). */
export const BUILT_VIEWS: Record<string, LoadView> = Object.fromEntries(
  Object.entries(PAGES).map(([key, load]) => [key, () => Promise.all([load(), loadAreaStrings()]).then(([view]) => view)]),
);

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
