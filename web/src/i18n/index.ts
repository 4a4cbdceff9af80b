import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { settingsStore } from '@/store/settings';
import type { Language } from '@/config';
import zh from './locales/zh';
import en from './locales/en';
import { menuTitlesEn, menuTitlesZh } from './menuTitles';
import assets from './locales/assets';
import chargers from './locales/chargers';
import demo from './locales/demo';
import orders from './locales/orders';
import settings from './locales/settings';

void i18n.use(initReactI18next).init({
  lng: settingsStore.get().language,
  fallbackLng: 'zh',
  supportedLngs: ['zh', 'en'],
  ns: ['common', 'menu'],
  defaultNS: 'common',
  resources: {
    zh: { common: { ...zh, ...assets.zh, ...chargers.zh, ...demo.zh, ...orders.zh, ...settings.zh }, menu: menuTitlesZh },
    en: { common: { ...en, ...assets.en, ...chargers.en, ...demo.en, ...orders.en, ...settings.en }, menu: menuTitlesEn },
  },
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
