import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { act, render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILT_VIEWS } from '@/pages/registry';

/**
 * Smoke test of the demo views in development mode: each renders against
 * answers shaped like the /partnerapi contracts without a React warning or
 * console error (duplicate keys, bad props, uncontrolled→controlled…).
 * Views drawing on a canvas (ECharts, LogicFlow, media recording) are left to
 * the Chromium e2e test.
 */
const CANVAS_VIEWS = ['index/dashboard', 'index/workbench', 'other/workflow', 'other/player', 'other/echarts', 'other/cropper'];
const DEMO = Object.keys(BUILT_VIEWS).filter((k) => /^(vab|other|mall)\//.test(k) || k === 'index/dashboard' || k === 'index/workbench');

const item = (i: number) => ({
  uuid: `u${i}`,
  id: String(i),
  title: `标题 ${i}`,
  description: `描述 ${i}`,
  status: (['published', 'draft', 'deleted'] as const)[i % 3],
  author: '作者',
  datetime: '2026-01-01 08:00:00',
  pageViews: 300 + i,
  img: `demo/img-${String((i % 38) + 1).padStart(2, '0')}.svg`,
  switch: i % 2 === 0,
  percent: 80 + (i % 19),
  rate: (i % 5) + 1,
  percentage: i % 100,
});

const ANSWERS: Record<string, unknown> = {
  '/table/getList': { list: Array.from({ length: 20 }, (_, i) => item(i + 1)), total: 50 },
  '/goods/getList': {
    list: Array.from({ length: 12 }, (_, i) => ({ uuid: `g${i}`, image: 'demo/img-02.svg', title: `商品 ${i}`, price: 10 + i, label: ['热销', '热销'], company: '公司', url: '', description: '描述' })),
    total: 30,
  },
  '/description/getList': { list: [{ title: '名称', description: '值' }] },
  '/remixIcon/getList': { list: ['home-2-line', 'add-line'], total: 2 },
  '/notice/getList': { list: [{ id: '000000000001#0190', type: 'notice', image: '', notice: '<a href="#">通知</a>', email: 'a@b.c', createdAt: 0, version: 1, read: false }], total: 1, unread: 1 },
  '/area/getList': [{ name: '北京市', code: '110000', children: [{ name: '市辖区', code: '110100', children: [{ name: '东城区', code: '110101' }] }] }],
};

let errors: string[] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.map(String).join(' ')));
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/partnerapi/, '');
    const data = ANSWERS[path];
    return new Response(JSON.stringify(data === undefined ? { code: 404, msg: 'not mocked' } : { code: 200, msg: 'success', data }), { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

describe('demo views render without warnings', () => {
  it('covers the demo keys', () => expect(DEMO.length).toBeGreaterThan(50));

  for (const key of DEMO.filter((k) => !CANVAS_VIEWS.includes(k))) {
    it(key, async () => {
      const View: ComponentType = (await BUILT_VIEWS[key]()).default;
      const path = key === 'vab/table/detail' ? '/vab/table/detail?id=1' : '/x';
      render(
        <FluentProvider theme={webLightTheme}>
          <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false, revalidateOnFocus: false }}>
            <MemoryRouter initialEntries={[path]}>
              <Suspense fallback={null}>
                <View />
              </Suspense>
            </MemoryRouter>
          </SWRConfig>
        </FluentProvider>,
      );
      await act(async () => new Promise((r) => setTimeout(r, 60)));
      expect(document.body.textContent?.length ?? 0).toBeGreaterThan(0);
      expect(screen.queryByTestId('under-construction')).toBeNull();
      expect(errors).toEqual([]);
    });
  }
});
