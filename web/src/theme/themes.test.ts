import { describe, expect, it } from 'vitest';
import { THEME_NAMES } from '@/config';
import { appTheme, menuTheme } from './themes';

describe('themes', () => {
  it('keeps opaque surfaces in the menu theme (popups portalled from the header use it)', () => {
    for (const name of THEME_NAMES) {
      for (const theme of [appTheme(name), menuTheme(name)]) {
        for (const token of ['colorNeutralBackground1', 'colorNeutralBackground2'] as const) {
          expect(theme[token], `${name} ${token}`).toMatch(/^#[0-9a-f]{6}$/i);
        }
      }
    }
  });
});
