import { createDarkTheme, createLightTheme, type Theme } from '@fluentui/react-components';
import type { ThemeName } from '@/config';
import { brandRamp } from './brand';

/** Primary colour and menu tone of each of the seven themes. */
interface ThemeSpec {
  primary: string;
  /** Menu (sidebar/header bar) in the dark variant of the brand theme. */
  darkMenu: boolean;
  /** Menu surface colour; a gradient for 'ocean'. */
  menuBackground: string;
}

export const THEME_SPECS: Record<ThemeName, ThemeSpec> = {
  'blue-black': { primary: '#1677ff', darkMenu: true, menuBackground: '#1d2330' },
  'blue-white': { primary: '#1677ff', darkMenu: false, menuBackground: '#ffffff' },
  'green-black': { primary: '#0e9f6e', darkMenu: true, menuBackground: '#1b2623' },
  'green-white': { primary: '#0e9f6e', darkMenu: false, menuBackground: '#ffffff' },
  'red-black': { primary: '#d9363e', darkMenu: true, menuBackground: '#2a1f21' },
  'red-white': { primary: '#d9363e', darkMenu: false, menuBackground: '#ffffff' },
  ocean: { primary: '#0891b2', darkMenu: true, menuBackground: 'linear-gradient(180deg, #0b3c5d 0%, #0e5e79 55%, #118a8e 100%)' },
};

const cache = new Map<string, Theme>();

function build(name: ThemeName, variant: 'app' | 'menu'): Theme {
  const key = `${name}:${variant}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const spec = THEME_SPECS[name];
  const brand = brandRamp(spec.primary);
  let theme: Theme;
  // The menu surface paints its own background (an inline style in the shell),
  // so its theme keeps opaque neutral backgrounds: popups opened from a menu
  // area (header dropdowns, dialogs, tooltips, collapsed-menu popups) are
  // portalled with the nearest provider's theme and would otherwise be see-through.
  if (variant === 'menu' && spec.darkMenu) {
    const dark = createDarkTheme(brand);
    // Fluent's guidance for dark brand themes: lighter brand foregrounds for contrast.
    theme = { ...dark, colorBrandForeground1: brand[110], colorBrandForeground2: brand[120] };
  } else {
    theme = createLightTheme(brand);
  }
  cache.set(key, theme);
  return theme;
}

/** Theme of the page content. */
export const appTheme = (name: ThemeName): Theme => build(name, 'app');
/** Theme of the menu areas (dark for the *-black themes and ocean). */
export const menuTheme = (name: ThemeName): Theme => build(name, 'menu');
export const menuBackground = (name: ThemeName): string => THEME_SPECS[name].menuBackground;
export const isDarkMenu = (name: ThemeName): boolean => THEME_SPECS[name].darkMenu;
