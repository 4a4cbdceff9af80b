import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useListParams } from './listParams';

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
