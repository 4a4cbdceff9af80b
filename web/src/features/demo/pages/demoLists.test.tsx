import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '@/i18n';
import ComprehensiveTable from './tables/ComprehensiveTable';
import GoodsPage from './Goods';

let asked: string[] = [];
beforeEach(() => {
  asked = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    asked.push(url.pathname.replace(/^.*\/partnerapi/, '') + url.search);
    return new Response(JSON.stringify({ code: 200, msg: 'success', data: { list: [], total: 0 } }), { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

function show(element: React.ReactNode, at: string) {
  const router = createMemoryRouter([{ path: '/list', element }], { initialEntries: [at] });
  render(
    <FluentProvider theme={webLightTheme}>
      <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}>
        <RouterProvider router={router} />
      </SWRConfig>
    </FluentProvider>,
  );
  return router;
}

describe('demo lists keep their filter and page in the URL', () => {
  it('comprehensive table: a shared link shows its filter and page; a search starts again at page 1', async () => {
    const router = show(<ComprehensiveTable />, '/list?title=abc&page=3');
    await waitFor(() => expect(asked).toContain('/table/getList?pageNo=3&pageSize=20&title=abc'));
    const input = screen.getByTestId('table-filter') as HTMLInputElement;
    expect(input.value).toBe('abc');
    fireEvent.change(input, { target: { value: ' xyz ' } });
    await act(async () => fireEvent.submit(input.closest('form')!));
    expect(router.state.location.search).toBe('?title=xyz');
    await waitFor(() => expect(asked).toContain('/table/getList?pageNo=1&pageSize=20&title=xyz'));
    // Back: the previous filter, in the form too.
    await act(async () => void router.navigate(-1));
    expect((screen.getByTestId('table-filter') as HTMLInputElement).value).toBe('abc');
  });

  it('goods: a page size the pager does not offer reads as the default', async () => {
    show(<GoodsPage />, '/list?size=500&page=2');
    await waitFor(() => expect(asked).toContain('/goods/getList?pageNo=2&pageSize=12'));
  });
});
