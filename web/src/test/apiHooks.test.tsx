import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLivePiles } from '@/features/stations/api/assets';
import { commandRefreshInterval, commandsRefreshInterval, useCommand, useCommands, useReservations, type Command } from '@/features/stations/api/chargers';
import { orderRefreshInterval, useOrderDetail } from '@/features/orders/api/orders';
import { useSearch } from '../api/search';

let asked: string[] = [];
beforeEach(() => {
  asked = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    asked.push(url.pathname.replace(/^.*\/partnerapi/, '') + url.search);
    return new Response(JSON.stringify({ code: 200, msg: 'success', data: { list: [] } }), { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

const wrapper = ({ children }: { children: ReactNode }) => (
  <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false, dedupingInterval: 0 }}>{children}</SWRConfig>
);
const command = (status: Command['status']) => ({ id: 'c1', status }) as Command;

describe('commands polling', () => {
  it('polls every second while a command waits for the charger, else not', () => {
    expect(commandsRefreshInterval(undefined)).toBe(0);
    expect(commandsRefreshInterval({ list: [command('answered'), command('timeout')] } as never)).toBe(0);
    expect(commandsRefreshInterval({ list: [command('answered'), command('sent')] } as never)).toBe(1000);
    expect(commandsRefreshInterval({ list: [command('queued')] } as never)).toBe(1000);
  });
});

describe('a command sent after all were answered', () => {
  it('starts the polling again until the charger answers', async () => {
    let answers = [[command('answered')], [command('queued')], [command('sent')], [command('answered')]];
    const commandsAsked = () => asked.filter((a) => a.startsWith('/charger/commands')).length;
    vi.mocked(globalThis.fetch).mockImplementation(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      asked.push(url.pathname.replace(/^.*\/partnerapi/, '') + url.search);
      const list = answers[0];
      if (answers.length > 1) answers = answers.slice(1);
      return new Response(JSON.stringify({ code: 200, msg: 'success', data: { list } }), { status: 200 });
    });
    const { result } = renderHook(() => useCommands('p1'), { wrapper });
    await waitFor(() => expect(result.current.data?.list[0].status).toBe('answered'));
    expect(commandsAsked()).toBe(1);
    // What the page does after sending: one reload, then the 1 s polling finds the answer.
    await result.current.mutate();
    await waitFor(() => expect(result.current.data?.list[0].status).toBe('answered'), { timeout: 10_000 });
    expect(commandsAsked()).toBe(4);
  });
});

describe('reservations follow the latest command', () => {
  it('asks again when the latest command moves on, and not at all when disabled', async () => {
    const { rerender } = renderHook(({ latest, enabled }) => useReservations('p1', latest, enabled), {
      wrapper,
      initialProps: { latest: command('queued') as Command | undefined, enabled: false },
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual([]);
    rerender({ latest: command('queued'), enabled: true });
    await waitFor(() => expect(asked).toEqual(['/charger/reservations?pileId=p1']));
    rerender({ latest: command('answered'), enabled: true });
    await waitFor(() => expect(asked).toHaveLength(2));
  });
});

describe('header search', () => {
  it('asks only while open and with a keyword', async () => {
    const { rerender } = renderHook(({ keyword, open }) => useSearch(keyword, open), { wrapper, initialProps: { keyword: '', open: true } });
    rerender({ keyword: 'st', open: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual([]);
    rerender({ keyword: 'st', open: true });
    await waitFor(() => expect(asked).toEqual(['/search/getList?keyword=st']));
  });
});

/** Answers each call to `path` with the next of `answers` (the last one repeats); other calls get an empty list. */
function answering(path: string, answers: unknown[]) {
  vi.mocked(globalThis.fetch).mockImplementation(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const called = url.pathname.replace(/^.*\/partnerapi/, '');
    asked.push(called + url.search);
    let data: unknown = { list: [] };
    if (called === path) {
      data = answers[0];
      if (answers.length > 1) answers = answers.slice(1);
    }
    return new Response(JSON.stringify({ code: 200, msg: 'success', data }), { status: 200 });
  });
}

describe('a running order', () => {
  it('is read again while charging, and no more once it ended', async () => {
    expect(orderRefreshInterval(undefined)).toBe(0);
    expect(orderRefreshInterval({ status: 'finished' })).toBe(0);
    expect(orderRefreshInterval({ status: 'charging' }, 40)).toBe(40);
    answering('/order/detail', [
      { orderNo: 'N1', status: 'charging', energyWh: 4200 },
      { orderNo: 'N1', status: 'charging', energyWh: 4500 },
      { orderNo: 'N1', status: 'finished', energyWh: 4600 },
    ]);
    const detailAsked = () => asked.filter((a) => a.startsWith('/order/detail')).length;
    const { result } = renderHook(() => useOrderDetail('N1', 40), { wrapper });
    await waitFor(() => expect(result.current.data?.status).toBe('finished'), { timeout: 5_000 });
    expect(result.current.data?.energyWh).toBe(4600);
    const after = detailAsked();
    expect(after).toBe(3);
    await new Promise((r) => setTimeout(r, 200));
    expect(detailAsked(), 'no polling once finished').toBe(after);
  });
});

describe('one command', () => {
  it('is followed until the charger answered it', async () => {
    expect(commandRefreshInterval(command('sent'), 50)).toBe(50);
    expect(commandRefreshInterval(command('answered'), 50)).toBe(0);
    answering('/charger/command', [command('queued'), command('sent'), command('answered')]);
    const { result } = renderHook(() => useCommand('c1', 40), { wrapper });
    await waitFor(() => expect(result.current.data?.status).toBe('answered'), { timeout: 5_000 });
    const n = asked.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(asked.length).toBe(n);
  });
});

describe("a station's piles", () => {
  it('are read again on their own while the page is open, starting from the detail it was given', async () => {
    const pile = (connected: boolean) => ({ id: 'p1', link: { connected } });
    answering('/pile/getList', [{ list: [pile(false)], total: 1 }]);
    const { result } = renderHook(() => useLivePiles('st1', [pile(true)] as never, 40), { wrapper });
    expect(result.current.data?.[0]?.link?.connected, 'the detail stands in until the first read').toBe(true);
    await waitFor(() => expect(result.current.data?.[0]?.link?.connected).toBe(false), { timeout: 5_000 });
    await waitFor(() => expect(asked.filter((a) => a.startsWith('/pile/getList')).length).toBeGreaterThan(2), { timeout: 5_000 });
  });
});
