import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '@/i18n';
import { CardPicker } from './CardPicker';

const SLOW = { timeout: 5000 };
const card = (idTag: string, holder: string, plate: string) => ({ idTag, holder, plate, status: 'Accepted', payment: 'postpaid', balanceFen: 0, heldFen: 0, walletVersion: 0 });

let asked: URLSearchParams[] = [];
beforeEach(() => {
  asked = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    asked.push(url.searchParams);
    const list = url.searchParams.get('text') ? [card('DEMO0013', '演示用户13', '京A10481')] : [card('DEMO0001', '演示用户01', '京A10037')];
    return new Response(JSON.stringify({ code: 200, msg: 'success', data: { list, more: false } }), { status: 200 });
  });
});
afterEach(() => vi.restoreAllMocks());

describe('CardPicker', () => {
  it('asks the server for what is typed (holder, plate or number) and offers each card with its holder and plate', async () => {
    const onChange = vi.fn();
    render(
      <FluentProvider theme={webLightTheme}>
        <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}>
          <CardPicker value="" status="Accepted" onChange={onChange} data-testid="picker" />
        </SWRConfig>
      </FluentProvider>,
    );
    const input = screen.getByTestId('picker') as HTMLInputElement;
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: '演示用户13' } });
    await waitFor(() => expect(asked.some((q) => q.get('text') === '演示用户13' && q.get('status') === 'Accepted')).toBe(true), SLOW);
    expect(onChange).not.toHaveBeenCalled();
    const option = await screen.findByRole('option', { name: 'DEMO0013 · 演示用户13 · 京A10481' }, SLOW);
    fireEvent.click(option);
    expect(onChange).toHaveBeenCalledWith('DEMO0013');
  });
});
