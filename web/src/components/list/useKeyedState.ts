import { useCallback, useState, type SetStateAction } from 'react';

/**
 * State that belongs to a key (a list's filter, its sort): read under
 * another key it is `initial()` again, so a new filter starts from its
 * first page with no totals, without a state update during render and
 * without an effect. A write is stored under the key of its render.
 * `initial` should be stable (a module function).
 */
export function useKeyedState<S>(key: string, initial: () => S): [S, (next: SetStateAction<S>) => void] {
  const [held, setHeld] = useState(() => ({ key, value: initial() }));
  const value = held.key === key ? held.value : initial();
  const set = useCallback(
    (next: SetStateAction<S>) =>
      setHeld((h) => {
        const base = h.key === key ? h.value : initial();
        return { key, value: typeof next === 'function' ? (next as (s: S) => S)(base) : next };
      }),
    [key, initial],
  );
  return [value, set];
}
