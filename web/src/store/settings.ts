import {
  DEFAULT_LANGUAGE,
  DEFAULT_THEME,
  LANGUAGES,
  SITE_TITLE,
  STORAGE_KEYS,
  type Language,
  type ThemeSettings,
} from '@/config';
import { normaliseTheme } from '@/theme/rules';
import { readJson, readStorage, removeStorage, writeStorage } from '@/utils/storage';
import { createStore } from './createStore';

export type Device = 'desktop' | 'mobile';

export interface SettingsState {
  logo: string;
  title: string;
  device: Device;
  collapse: boolean;
  language: Language;
  theme: ThemeSettings;
  /** extra.first: the first-level route chosen in the comprehensive layout. */
  extraFirst: string;
  /** True while the random-theme loading mask shows. */
  themeMask: boolean;
  themeDrawerOpen: boolean;
}

function initialLanguage(): Language {
  const stored = readStorage(STORAGE_KEYS.language);
  return LANGUAGES.includes(stored as Language) ? (stored as Language) : DEFAULT_LANGUAGE;
}

export const settingsStore = createStore<SettingsState>({
  logo: 'flash',
  title: SITE_TITLE,
  device: 'desktop',
  collapse: readStorage(STORAGE_KEYS.collapse) === 'true',
  language: initialLanguage(),
  theme: normaliseTheme(readJson<Partial<ThemeSettings>>(STORAGE_KEYS.theme)),
  extraFirst: '',
  themeMask: false,
  themeDrawerOpen: false,
});

export function setCollapse(collapse: boolean): void {
  settingsStore.set({ collapse });
  writeStorage(STORAGE_KEYS.collapse, String(collapse));
}

export const toggleCollapse = (): void => setCollapse(!settingsStore.get().collapse);

export function setLanguage(language: Language): void {
  settingsStore.set({ language });
  writeStorage(STORAGE_KEYS.language, language);
}

export const setDevice = (device: Device): void => settingsStore.set({ device });

/** Applies a theme without saving it (live preview in the drawer). */
export const applyTheme = (theme: ThemeSettings): void => settingsStore.set({ theme });

export function saveTheme(theme: ThemeSettings): void {
  settingsStore.set({ theme, themeDrawerOpen: false });
  writeStorage(STORAGE_KEYS.theme, JSON.stringify(theme));
}

export function restoreDefaultTheme(): void {
  settingsStore.set({ theme: { ...DEFAULT_THEME }, themeDrawerOpen: false });
  removeStorage(STORAGE_KEYS.theme);
}

export const setThemeDrawerOpen = (open: boolean): void => settingsStore.set({ themeDrawerOpen: open });
export const setExtraFirst = (extraFirst: string): void => settingsStore.set({ extraFirst });
