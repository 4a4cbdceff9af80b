import { readMenuRoutes, SRC_DIR } from '@/test/routeData';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import i18n, { translateTitle } from '@/i18n';
import type { RawRoute } from '@/router/types';
import zh from './locales/zh';
import en from './locales/en';

const keysOf = (obj: object, prefix = ''): string[] =>
  Object.entries(obj).flatMap(([k, v]) => (typeof v === 'object' ? keysOf(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

const srcDir = SRC_DIR;
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(f) && !f.endsWith('.test.ts') && !f.endsWith('.test.tsx') ? [p] : [];
  });

describe('i18n', () => {
  it('zh and en have the same keys (each locale file and the merged common namespace)', () => {
    expect(keysOf(en).sort()).toEqual(keysOf(zh).sort());
    expect(keysOf(i18n.getResourceBundle('en', 'common') as object).sort()).toEqual(keysOf(i18n.getResourceBundle('zh', 'common') as object).sort());
  });

  it('every literal t("...") key used in the source exists', () => {
    // Locale files merged into `common` (index.ts) count too.
    const all = new Set(keysOf(i18n.getResourceBundle('zh', 'common') as object));
    const used = sources(srcDir).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z]+\.[a-zA-Z0-9.]+)'/g)].map((m) => m[1]));
    expect(used.length).toBeGreaterThan(30);
    expect(used.filter((k) => !all.has(k))).toEqual([]);
  });

  it('translates every menu title of the route data to English', async () => {
    const menu = readMenuRoutes();
    const titles: string[] = [];
    const walk = (rs: RawRoute[]) => rs.forEach((r) => (titles.push(r.meta?.title ?? ''), r.children && walk(r.children)));
    walk(menu);
    await i18n.changeLanguage('en');
    const untranslated = titles.filter((t) => /[\u4e00-\u9fa5]/.test(translateTitle(t)));
    expect(untranslated).toEqual([]);
    expect(translateTitle('首页')).toBe('Home');
    expect(translateTitle('not in dictionary')).toBe('not in dictionary');
    await i18n.changeLanguage('zh');
    expect(translateTitle('首页')).toBe('首页');
    expect(translateTitle('new-energy management system')).toBe('新能源管理系统');
  });
});
