import MENU_TITLES_EN from './menu-titles-en.json';

/**
 * The Chinese-keyed title dictionary: route titles are written
 * in Chinese; in English they are looked up here, and a title that is not in
 * the dictionary is shown as it is. The site title is keyed by its English text.
 */
// One dictionary for the SPA and the server's header search (which matches
// titles in both languages): `menu-titles-en.json`. The site title is keyed by
// its English text, so English does not fall back to Chinese.
export const menuTitlesEn: Record<string, string> = MENU_TITLES_EN;

export const menuTitlesZh: Record<string, string> = {
  'new-energy management system': '新能源管理系统',
};
