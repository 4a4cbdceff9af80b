import {
  BACKGROUNDS,
  COLUMN_STYLES,
  DEFAULT_THEME,
  LAYOUTS,
  TABS_BAR_STYLES,
  THEME_NAMES,
  type LayoutName,
  type ThemeSettings,
} from '@/config';

type Device = 'desktop' | 'mobile';

const BOOLEAN_FIELDS = [
  'fixedHeader',
  'showProgressBar',
  'showTabs',
  'showTabsIcon',
  'showLanguage',
  'showRefresh',
  'showSearch',
  'showTheme',
  'showNotice',
  'showFullScreen',
  'showThemeSetting',
] as const;

const pick = <T>(allowed: readonly T[], value: unknown, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

/** Turns whatever was stored (old, partial or tampered) into valid settings. */
export function normaliseTheme(stored: Partial<ThemeSettings> | null | undefined): ThemeSettings {
  const s = stored ?? {};
  const theme: ThemeSettings = {
    ...DEFAULT_THEME,
    layout: pick(LAYOUTS, s.layout, DEFAULT_THEME.layout),
    themeName: pick(THEME_NAMES, s.themeName, DEFAULT_THEME.themeName),
    background: pick(BACKGROUNDS, s.background, DEFAULT_THEME.background),
    columnStyle: pick(COLUMN_STYLES, s.columnStyle, DEFAULT_THEME.columnStyle),
    tabsBarStyle: pick(TABS_BAR_STYLES, s.tabsBarStyle, DEFAULT_THEME.tabsBarStyle),
  };
  for (const field of BOOLEAN_FIELDS) {
    if (typeof s[field] === 'boolean') theme[field] = s[field];
  }
  return theme;
}

/** Below the breakpoint the layout is forced to vertical. */
export const effectiveLayout = (layout: LayoutName, device: Device): LayoutName =>
  device === 'mobile' ? 'vertical' : layout;

export interface ThemeControlState {
  layout: boolean;
  background: boolean;
  showTabsIcon: boolean;
  tabsBarStyle: boolean;
  columnStyle: boolean;
  fixedHeader: boolean;
}

/** Which theme-drawer controls are disabled. true = disabled. */
export function disabledControls(theme: ThemeSettings, device: Device): ThemeControlState {
  const layout = effectiveLayout(theme.layout, device);
  return {
    layout: device === 'mobile',
    background: layout === 'float' || layout === 'horizontal',
    showTabsIcon: !theme.showTabs,
    tabsBarStyle: !theme.showTabs,
    columnStyle: layout !== 'column',
    fixedHeader: layout === 'common',
  };
}

function different<T>(values: readonly T[], current: T, random: () => number): T {
  const others = values.filter((v) => v !== current);
  return others[Math.floor(random() * others.length) % others.length];
}

/**
 * Random theme: starting from the defaults, every enumerated option
 * gets a value different from the current one; on mobile the layout stays vertical.
 */
export function randomTheme(current: ThemeSettings, device: Device, random: () => number = Math.random): ThemeSettings {
  return {
    ...DEFAULT_THEME,
    themeName: different(THEME_NAMES, current.themeName, random),
    layout: device === 'mobile' ? 'vertical' : different(LAYOUTS, current.layout, random),
    background: different(BACKGROUNDS, current.background, random),
    columnStyle: different(COLUMN_STYLES, current.columnStyle, random),
    tabsBarStyle: different(TABS_BAR_STYLES, current.tabsBarStyle, random),
  };
}
