import { HomeRegular } from '@fluentui/react-icons/svg/home';
import { GaugeRegular } from '@fluentui/react-icons/svg/gauge';
import { SettingsCogMultipleRegular } from '@fluentui/react-icons/svg/settings-cog-multiple';
import { ReceiptRegular } from '@fluentui/react-icons/svg/receipt';
import { DocumentBulletListRegular } from '@fluentui/react-icons/svg/document-bullet-list';
import { DocumentTextRegular } from '@fluentui/react-icons/svg/document-text';
import { BatteryChargeRegular } from '@fluentui/react-icons/svg/battery-charge';
import { BuildingMultipleRegular } from '@fluentui/react-icons/svg/building-multiple';
import { PlugConnectedRegular } from '@fluentui/react-icons/svg/plug-connected';
import { SettingsRegular } from '@fluentui/react-icons/svg/settings';
import { MoneyRegular } from '@fluentui/react-icons/svg/money';
import { DataTrendingRegular } from '@fluentui/react-icons/svg/data-trending';
import { PersonRegular } from '@fluentui/react-icons/svg/person';
import { PersonSettingsRegular } from '@fluentui/react-icons/svg/person-settings';
import { ShieldKeyholeRegular } from '@fluentui/react-icons/svg/shield-keyhole';
import { PeopleTeamRegular } from '@fluentui/react-icons/svg/people-team';
import { NavigationRegular } from '@fluentui/react-icons/svg/navigation';
import { DocumentSearchRegular } from '@fluentui/react-icons/svg/document-search';
import { CodeBlockRegular } from '@fluentui/react-icons/svg/code-block';
import { IconsRegular } from '@fluentui/react-icons/svg/icons';
import { ColorRegular } from '@fluentui/react-icons/svg/color';
import { PeopleRegular } from '@fluentui/react-icons/svg/people';
import { TableSimpleRegular } from '@fluentui/react-icons/svg/table-simple';
import { TableRegular } from '@fluentui/react-icons/svg/table';
import { EditRegular } from '@fluentui/react-icons/svg/edit';
import { GridDotsRegular } from '@fluentui/react-icons/svg/grid-dots';
import { CardUiRegular } from '@fluentui/react-icons/svg/card-ui';
import { TaskListLtrRegular } from '@fluentui/react-icons/svg/task-list-ltr';
import { FormRegular } from '@fluentui/react-icons/svg/form';
import { TextNumberFormatRegular } from '@fluentui/react-icons/svg/text-number-format';
import { CheckboxUncheckedRegular } from '@fluentui/react-icons/svg/checkbox-unchecked';
import { LinkRegular } from '@fluentui/react-icons/svg/link';
import { RadioButtonRegular } from '@fluentui/react-icons/svg/radio-button';
import { CheckboxCheckedRegular } from '@fluentui/react-icons/svg/checkbox-checked';
import { TextFieldRegular } from '@fluentui/react-icons/svg/text-field';
import { AddSquareRegular } from '@fluentui/react-icons/svg/add-square';
import { TextBulletListSquareRegular } from '@fluentui/react-icons/svg/text-bullet-list-square';
import { ToggleRightRegular } from '@fluentui/react-icons/svg/toggle-right';
import { SlideSizeRegular } from '@fluentui/react-icons/svg/slide-size';
import { ClockRegular } from '@fluentui/react-icons/svg/clock';
import { CalendarLtrRegular } from '@fluentui/react-icons/svg/calendar-ltr';
import { CalendarClockRegular } from '@fluentui/react-icons/svg/calendar-clock';
import { StarRegular } from '@fluentui/react-icons/svg/star';
import { TextEditStyleRegular } from '@fluentui/react-icons/svg/text-edit-style';
import { MarkdownRegular } from '@fluentui/react-icons/svg/markdown';
import { ArchiveRegular } from '@fluentui/react-icons/svg/archive';
import { FlowchartRegular } from '@fluentui/react-icons/svg/flowchart';
import { DataPieRegular } from '@fluentui/react-icons/svg/data-pie';
import { PrintRegular } from '@fluentui/react-icons/svg/print';
import { CropRegular } from '@fluentui/react-icons/svg/crop';
import { AlertBadgeRegular } from '@fluentui/react-icons/svg/alert-badge';
import { NumberRowRegular } from '@fluentui/react-icons/svg/number-row';
import { TabDesktopMultipleRegular } from '@fluentui/react-icons/svg/tab-desktop-multiple';
import { TagMultipleRegular } from '@fluentui/react-icons/svg/tag-multiple';
import { ArrowSwapRegular } from '@fluentui/react-icons/svg/arrow-swap';
import { ArrowMoveRegular } from '@fluentui/react-icons/svg/arrow-move';
import { WindowMultipleRegular } from '@fluentui/react-icons/svg/window-multiple';
import { LayoutRowTwoRegular } from '@fluentui/react-icons/svg/layout-row-two';
import { TapSingleRegular } from '@fluentui/react-icons/svg/tap-single';
import { SpinnerIosRegular } from '@fluentui/react-icons/svg/spinner-ios';
import { VideoClipRegular } from '@fluentui/react-icons/svg/video-clip';
import { ArrowUploadRegular } from '@fluentui/react-icons/svg/arrow-upload';
import { ArrowRoutingRegular } from '@fluentui/react-icons/svg/arrow-routing';
import { BugRegular } from '@fluentui/react-icons/svg/bug';
import { PaintBrushRegular } from '@fluentui/react-icons/svg/paint-brush';
import { PeopleCommunityRegular } from '@fluentui/react-icons/svg/people-community';
import { OpenRegular } from '@fluentui/react-icons/svg/open';
import { WindowRegular } from '@fluentui/react-icons/svg/window';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { DocumentTableRegular } from '@fluentui/react-icons/svg/document-table';
import { CartRegular } from '@fluentui/react-icons/svg/cart';
import { ErrorCircleRegular } from '@fluentui/react-icons/svg/error-circle';
import { AppsListRegular } from '@fluentui/react-icons/svg/apps-list';

type FluentIcon = typeof HomeRegular;

/**
 * Route data names remix icons ('home-2-line'); the shell draws Fluent icons.
 * This is the one mapping between the two; unknown names get the menu icon.
 */
const ICONS: Record<string, FluentIcon> = {
  'home-2-line': HomeRegular,
  'dashboard-line': GaugeRegular,
  'settings-6-line': SettingsCogMultipleRegular,
  'file-list-3-line': ReceiptRegular,
  'file-list-line': DocumentBulletListRegular,
  'file-text-line': DocumentTextRegular,
  'charging-pile-2-line': BatteryChargeRegular,
  'building-2-line': BuildingMultipleRegular,
  'plug-line': PlugConnectedRegular,
  'settings-3-line': SettingsRegular,
  'money-cny-circle-line': MoneyRegular,
  'funds-line': DataTrendingRegular,
  'equalizer-line': SlideSizeRegular,
  'user-line': PersonRegular,
  'user-settings-line': PersonSettingsRegular,
  'admin-line': ShieldKeyholeRegular,
  'group-line': PeopleTeamRegular,
  'menu-2-fill': NavigationRegular,
  'menu-line': AppsListRegular,
  'file-shield-2-line': DocumentSearchRegular,
  'code-box-line': CodeBlockRegular,
  'remixicon-line': IconsRegular,
  'gradienter-line': ColorRegular,
  'user-3-line': PeopleRegular,
  'table-2': TableSimpleRegular,
  'table-line': TableRegular,
  'edit-2-line': EditRegular,
  'layout-grid-line': GridDotsRegular,
  'card-line': CardUiRegular,
  'list-check': TaskListLtrRegular,
  'file-list-2-line': FormRegular,
  'list-ordered': TextNumberFormatRegular,
  'checkbox-blank-line': CheckboxUncheckedRegular,
  'links-line': LinkRegular,
  'radio-button-line': RadioButtonRegular,
  'checkbox-line': CheckboxCheckedRegular,
  'input-method-line': TextFieldRegular,
  'add-box-line': AddSquareRegular,
  'select-line': TextBulletListSquareRegular,
  'toggle-line': ToggleRightRegular,
  'time-line': ClockRegular,
  'calendar-line': CalendarLtrRegular,
  'calendar-event-line': CalendarClockRegular,
  'star-line': StarRegular,
  'edit-box-line': TextEditStyleRegular,
  'edit-line': EditRegular,
  'markdown-line': MarkdownRegular,
  'archive-line': ArchiveRegular,
  'flow-chart': FlowchartRegular,
  'bubble-chart-line': DataPieRegular,
  'printer-line': PrintRegular,
  'crop-line': CropRegular,
  'message-2-line': AlertBadgeRegular,
  'number-2': NumberRowRegular,
  'number-1': NumberRowRegular,
  'microsoft-line': TabDesktopMultipleRegular,
  'notification-badge-line': TagMultipleRegular,
  'arrow-left-right-line': ArrowSwapRegular,
  'drag-drop-line': ArrowMoveRegular,
  'window-line': WindowMultipleRegular,
  'layout-masonry-line': LayoutRowTwoRegular,
  'loader-line': SpinnerIosRegular,
  'video-line': VideoClipRegular,
  'chat-upload-line': ArrowUploadRegular,
  'route-line': ArrowRoutingRegular,
  'error-warning-line': ErrorCircleRegular,
  'css3-line': PaintBrushRegular,
  'github-fill': PeopleCommunityRegular,
  'external-link-line': OpenRegular,
  'window-2-line': WindowRegular,
  'search-line': SearchRegular,
  'file-excel-2-line': DocumentTableRegular,
  'file-excel-line': DocumentTableRegular,
  'shopping-cart-line': CartRegular,
  'cursor-line': TapSingleRegular,
  'bug-line': BugRegular,
};

export const iconFor = (name: string | null | undefined): FluentIcon => (name && ICONS[name]) || AppsListRegular;

export const hasIcon = (name: string): boolean => name in ICONS;

export function RouteIcon({ name, className }: { name?: string | null; className?: string }) {
  const Icon = iconFor(name);
  return <Icon className={className} aria-hidden />;
}
