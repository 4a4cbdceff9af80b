import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '@/i18n';
import { StationPicker } from './StationPicker';

const SLOW = { timeout: 5000 };
const station = (id: string, name: string) => ({ id, name, code: id.toUpperCase() });

let asked: string[] = [];
beforeEach(() => {
  asked = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    asked.push(url.search);
    const name = url.searchParams.get('name');
    const list = name ? [station('st-15', '望京SOHO充电站')] : [station('st-1', '中关村充电站'), station('st-15', '望京SOHO充电站')];
    return new Response(JSON.stringify({ code: 200, msg: 'success', data: { list, total: list.length } }), { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

function show(value?: string) {
  const onChange = vi.fn();
  render(
    <FluentProvider theme={webLightTheme}>
      <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}>
        <StationPicker value={value} onChange={onChange} data-testid="picker" />
      </SWRConfig>
    </FluentProvider>,
  );
  return onChange;
}

describe('StationPicker', () => {
  it('searches the server with what is typed, whether a station or all stations is chosen', async () => {
    for (const value of [undefined, 'st-1']) {
      const onChange = show(value);
      const input = screen.getAllByTestId('picker').at(-1) as HTMLInputElement;
      fireEvent.change(input, { target: { value: 'soho' } });
      await waitFor(() => expect(asked).toContain('?name=soho&pageNo=1&pageSize=20'), SLOW);
      expect(input.value).toBe('soho');
      // Typing alone never changes the filter: only picking an option does.
      expect(onChange).not.toHaveBeenCalled();
    }
  });
});
