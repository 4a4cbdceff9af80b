import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME } from '@/config';
import { disabledControls, effectiveLayout, normaliseTheme, randomTheme } from './rules';

describe('theme rules (defaults, drawer controls, random theme)', () => {
  it('defaults', () => {
    expect(DEFAULT_THEME.layout).toBe('common');
    expect(DEFAULT_THEME.themeName).toBe('green-white');
    expect(DEFAULT_THEME.columnStyle).toBe('card');
    expect(DEFAULT_THEME.tabsBarStyle).toBe('smooth');
    expect(DEFAULT_THEME.fixedHeader).toBe(true);
  });

  it('normalises stored values, dropping unknown ones', () => {
    const t = normaliseTheme({ layout: 'weird' as never, themeName: 'ocean', showTabs: 'yes' as never });
    expect(t.layout).toBe('common');
    expect(t.themeName).toBe('ocean');
    expect(t.showTabs).toBe(true);
    expect(normaliseTheme(null)).toEqual(DEFAULT_THEME);
  });

  it('forces vertical on mobile', () => {
    expect(effectiveLayout('column', 'mobile')).toBe('vertical');
    expect(effectiveLayout('column', 'desktop')).toBe('column');
  });

  it('drawer enable/disable rules', () => {
    expect(disabledControls(DEFAULT_THEME, 'mobile').layout).toBe(true);
    expect(disabledControls(DEFAULT_THEME, 'desktop').layout).toBe(false);
    expect(disabledControls({ ...DEFAULT_THEME, layout: 'float' }, 'desktop').background).toBe(true);
    expect(disabledControls({ ...DEFAULT_THEME, layout: 'horizontal' }, 'desktop').background).toBe(true);
    expect(disabledControls({ ...DEFAULT_THEME, layout: 'vertical' }, 'desktop').background).toBe(false);
    const tabsOff = disabledControls({ ...DEFAULT_THEME, showTabs: false }, 'desktop');
    expect(tabsOff.showTabsIcon && tabsOff.tabsBarStyle).toBe(true);
    expect(disabledControls({ ...DEFAULT_THEME, layout: 'column' }, 'desktop').columnStyle).toBe(false);
    expect(disabledControls({ ...DEFAULT_THEME, layout: 'vertical' }, 'desktop').columnStyle).toBe(true);
    expect(disabledControls({ ...DEFAULT_THEME, layout: 'common' }, 'desktop').fixedHeader).toBe(true);
    expect(disabledControls({ ...DEFAULT_THEME, layout: 'vertical' }, 'desktop').fixedHeader).toBe(false);
  });

  it('random theme picks a different value for each option', () => {
    for (let i = 0; i < 20; i++) {
      const seed = i / 20;
      const next = randomTheme(DEFAULT_THEME, 'desktop', () => seed);
      expect(next.themeName).not.toBe(DEFAULT_THEME.themeName);
      expect(next.layout).not.toBe(DEFAULT_THEME.layout);
      expect(next.background).not.toBe(DEFAULT_THEME.background);
      expect(next.columnStyle).not.toBe(DEFAULT_THEME.columnStyle);
      expect(next.tabsBarStyle).not.toBe(DEFAULT_THEME.tabsBarStyle);
    }
    expect(randomTheme(DEFAULT_THEME, 'mobile').layout).toBe('vertical');
  });
});
