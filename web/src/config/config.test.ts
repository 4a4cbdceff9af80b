import { describe, expect, it } from 'vitest';
import { greetingKey } from './index';
import { pageTitle } from '@/utils/pageTitle';

describe('product constants', () => {
  it('greets by local hour', () => {
    expect(greetingKey(0)).toBe('greeting.morning');
    expect(greetingKey(7)).toBe('greeting.morning');
    expect(greetingKey(8)).toBe('greeting.forenoon');
    expect(greetingKey(11)).toBe('greeting.forenoon');
    expect(greetingKey(12)).toBe('greeting.noon');
    expect(greetingKey(13)).toBe('greeting.noon');
    expect(greetingKey(14)).toBe('greeting.afternoon');
    expect(greetingKey(17)).toBe('greeting.afternoon');
    expect(greetingKey(18)).toBe('greeting.evening');
    expect(greetingKey(23)).toBe('greeting.evening');
  });

  it('joins route title and site title, reversible', () => {
    expect(pageTitle('首页', '新能源管理系统')).toBe('首页 - 新能源管理系统');
    expect(pageTitle('Home', 'site', true)).toBe('site - Home');
    expect(pageTitle(undefined, 'site')).toBe('site');
  });
});

describe('spec defaults and the decisions that change them', () => {
  it('keeps the header switches README turned on', async () => {
    const { DEFAULT_THEME } = await import('./index');
    for (const k of ['showLanguage', 'showSearch', 'showTheme', 'showNotice', 'showThemeSetting'] as const) expect(DEFAULT_THEME[k]).toBe(true);
  });

  it('sizes a page-filling table: 291 px less, 60 px per extra row', async () => {
    const { tableHeight, TABLE_MIN_HEIGHT_PX } = await import('@/utils/tableHeight');
    expect(tableHeight(0, 1000)).toBe(709);
    expect(tableHeight(1, 1000)).toBe(649);
    expect(tableHeight(2, 1000)).toBe(589);
    expect(tableHeight(0, 400)).toBe(TABLE_MIN_HEIGHT_PX);
  });
});
