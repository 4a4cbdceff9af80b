import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useDraft, useListParams } from './listParams';

const DEFAULTS = { name: '', page: 1, size: 20 };

describe('useListParams', () => {
  it('writes to the URL, and the back button restores the previous filter', () => {
    let hook: { params: typeof DEFAULTS; set: (p: Partial<typeof DEFAULTS>) => void; back: () => void } | undefined;
    function Probe() {
      const { params, set } = useListParams(DEFAULTS);
      const navigate = useNavigate();
      hook = { params, set, back: () => void navigate(-1) };
      return null;
    }
    const router = createMemoryRouter([{ path: '/list', element: <Probe /> }], { initialEntries: ['/list?name=A&page=3'] });
    render(<RouterProvider router={router} />);
    expect(hook!.params).toEqual({ name: 'A', page: 3, size: 20 });
    act(() => hook!.set({ name: 'B' }));
    expect(hook!.params).toEqual({ name: 'B', page: 1, size: 20 });
    expect(router.state.location.search).toBe('?name=B');
    act(() => hook!.back());
    expect(hook!.params).toEqual({ name: 'A', page: 3, size: 20 });
  });
});

describe('useListParams, two changes before the next render', () => {
  it('keeps both (the second starts from the first, not from the last render)', () => {
    const DAYS = { from: '', to: '', page: 1, size: 20 };
    let set: ((p: Partial<typeof DAYS>) => void) | undefined;
    function Probe() {
      set = useListParams(DAYS).set;
      return null;
    }
    const router = createMemoryRouter([{ path: '/log', element: <Probe /> }], { initialEntries: ['/log?page=2'] });
    render(<RouterProvider router={router} />);
    act(() => {
      set!({ from: '2026-11-27' });
      set!({ to: '2026-11-28' });
    });
    expect(router.state.location.search).toBe('?from=2026-11-27&to=2026-11-28');
  });
});

describe('useDraft', () => {
  it('keeps what is typed and follows the URL when it changes', () => {
    let hook: { draft: string; type: (v: string) => void; set: (p: Partial<typeof DEFAULTS>) => void; back: () => void } | undefined;
    function Probe() {
      const { params, set } = useListParams(DEFAULTS);
      const [draft, setDraft] = useDraft(params.name);
      const navigate = useNavigate();
      hook = { draft, type: setDraft, set, back: () => void navigate(-1) };
      return null;
    }
    const router = createMemoryRouter([{ path: '/list', element: <Probe /> }], { initialEntries: ['/list?name=A'] });
    render(<RouterProvider router={router} />);
    expect(hook!.draft).toBe('A');
    act(() => hook!.type('AB'));
    expect(hook!.draft).toBe('AB');
    // A page change leaves the filter, and what is typed, alone.
    act(() => hook!.set({ page: 2 }));
    expect(hook!.draft).toBe('AB');
    act(() => hook!.set({ name: 'C' }));
    expect(hook!.draft).toBe('C');
    act(() => hook!.back());
    act(() => hook!.back());
    expect(hook!.draft).toBe('A');
  });
});
