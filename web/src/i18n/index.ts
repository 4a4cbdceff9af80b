import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { settingsStore } from '@/store/settings';
import type { Language } from '@/config';
import zh from './locales/zh';
import en from './locales/en';
import { menuTitlesEn, menuTitlesZh } from './menuTitles';

export type AreaStrings = { zh: object; en: object };
/** Loads one area's strings (a dynamic import of its locale module). */
export type LoadAreaStrings = () => Promise<{ default: AreaStrings }>;

let areasLoading: Promise<void> | null = null;

/**
 * The features' strings are not in the first download: each area is its
 * own chunk, fetched beside the first page's code (the page registry names
 * them) and merged into `common`. Components re-render when a bundle
 * arrives (`bindI18nStore: 'added'`), so a string shown before its area
 * loaded corrects itself. Loads every area once (all at once, in parallel:
 * a few KB each).
 */
export function loadAreaStrings(areas: readonly LoadAreaStrings[]): Promise<void> {
  areasLoading ??= Promise.all(
    areas.map((load) =>
      load().then(({ default: strings }) => {
        i18n.addResourceBundle('zh', 'common', strings.zh, true, false);
        i18n.addResourceBundle('en', 'common', strings.en, true, false);
      }),
    ),
  ).then(() => undefined);
  return areasLoading;
}

void i18n.use(initReactI18next).init({
  lng: settingsStore.get().language,
  fallbackLng: 'zh',
  supportedLngs: ['zh', 'en'],
  ns: ['common', 'menu'],
  defaultNS: 'common',
  resources: {
    zh: { common: zh, menu: menuTitlesZh },
    en: { common: en, menu: menuTitlesEn },
  },
  react: { bindI18nStore: 'added' },
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Route and site titles: through the menu dictionary, shown as-is when absent. */
export function translateTitle(title: string | undefined): string {
  if (!title) return '';
  return i18n.t(title, { ns: 'menu', keySeparator: false, nsSeparator: false, defaultValue: title });
}

export const htmlLang = (lng: Language): string => (lng === 'zh' ? 'zh-CN' : 'en');

export async function changeLanguage(lng: Language): Promise<void> {
  await i18n.changeLanguage(lng);
  document.documentElement.lang = htmlLang(lng);
}

export default i18n;

/** Hook form of translateTitle: re-renders the caller when the language changes. */
export function useTranslateTitle(): (title: string | undefined) => string {
  const { t } = useTranslation('menu');
  return (title) => (title ? t(title, { keySeparator: false, nsSeparator: false, defaultValue: title }) : '');
}

/**
 * A route title as shown, and whether it is data: titles are stored as an
 * Admin typed them (in Chinese, some with the template's Latin words such
 * as "动态Meta"); the menu dictionary translates the product's own into
 * English. A title the dictionary does not translate (every title in
 * Chinese) is shown as it is, as data.
 */
export function useRouteTitle(): (title: string | undefined) => { text: string; data: boolean } {
  const { t, i18n: instance } = useTranslation('menu');
  return (title) => {
    if (!title) return { text: '', data: false };
    const options = { ns: 'menu', keySeparator: false, nsSeparator: false } as const;
    return { text: t(title, { ...options, defaultValue: title }), data: !instance.exists(title, options) };
  };
}
