import { useCallback, useLayoutEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's state in the URL query string: filters, sort, page number and
 * size. Each key has a default (its type: string or number); a value equal
 * to its default is left out of the URL, so an unfiltered list has a plain
 * address and a filtered one is a link that can be shared.
 */
export type ListParams = Record<string, string | number>;

/** Keys that page through a list; changing any other key starts again at page 1. */
export const PAGING_KEYS = ['page', 'size'] as const;

export interface ListParamsOptions<D extends ListParams> {
  /** The values a key may take (others read as the default). */
  allowed?: { [K in keyof D]?: readonly D[K][] };
}

/** Reads the list's state from a query string (pure; tested). */
export function readListParams<D extends ListParams>(search: URLSearchParams, defaults: D, opts: ListParamsOptions<D> = {}): D {
  const out: ListParams = { ...defaults };
  for (const [k, def] of Object.entries(defaults)) {
    const raw = search.get(k);
    if (raw === null) continue;
    if (typeof def === 'number') {
      const n = Number(raw);
      if (raw.trim() !== '' && Number.isFinite(n)) out[k] = Math.trunc(n);
    } else {
      out[k] = raw;
    }
    const allowed = opts.allowed?.[k] as readonly (string | number)[] | undefined;
    if (allowed && !allowed.includes(out[k])) out[k] = def;
  }
  if (typeof out.page === 'number' && out.page < 1) out.page = 1;
  if (typeof out.size === 'number' && out.size < 1) out.size = defaults.size as number;
  return out as D;
}

/**
 * The query string after `patch` (pure; tested): values equal to their
 * default are removed, keys the list does not own are kept, and a change to
 * a filter or the sort (any key but page and size) drops the page number.
 * A new page size drops the page number too.
 */
export function writeListParams<D extends ListParams>(search: URLSearchParams, patch: Partial<D>, defaults: D): URLSearchParams {
  const q = new URLSearchParams(search);
  let resetPage = false;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || !(k in defaults)) continue;
    const before = q.get(k) ?? String(defaults[k]);
    if (String(v) === before) continue;
    if (k !== 'page') resetPage = true;
    if (String(v) === String(defaults[k]) || v === '') q.delete(k);
    else q.set(k, String(v));
  }
  if (resetPage && patch.page === undefined) q.delete('page');
  return q;
}

/**
 * The list's state, read from and written to the URL. `set` pushes a
 * history entry, so the browser's back button restores the previous filter.
 * `defaults` should be stable (a module constant or memoised).
 */
export function useListParams<D extends ListParams>(defaults: D, opts: ListParamsOptions<D> = {}) {
  const [search, setSearch] = useSearchParams();
  const allowed = opts.allowed;
  const params = useMemo(() => readListParams(search, defaults, { allowed }), [search, defaults, allowed]);
  // The query string as last written. The router's functional update hands
  // every call the query of the last render, so two changes before the page
  // renders again (a person filling two date fields quickly on a busy machine)
  // would lose the first; each write starts from the one before it instead.
  const latest = useRef(search);
  useLayoutEffect(() => {
    latest.current = search;
  }, [search]);
  const write = useCallback(
    (next: URLSearchParams, replace?: boolean) => {
      latest.current = next;
      setSearch(next, { replace });
    },
    [setSearch],
  );
  const set = useCallback(
    (patch: Partial<D>, how: { replace?: boolean } = {}) => write(writeListParams(latest.current, patch, defaults), how.replace),
    [write, defaults],
  );
  /** Back to the defaults (keys the list does not own stay). */
  const reset = useCallback(() => {
    const q = new URLSearchParams(latest.current);
    for (const k of Object.keys(defaults)) q.delete(k);
    write(q);
  }, [write, defaults]);
  return { params, set, reset };
}

/**
 * What is being typed for a value kept in the URL: it starts at the value
 * and starts again from it whenever the value changes (a search, the back
 * button, a link), so a filter form follows the URL without an effect.
 */
export function useDraft<T>(value: T): [T, Dispatch<SetStateAction<T>>] {
  const [draft, setDraft] = useState(value);
  const [followed, setFollowed] = useState(value);
  if (!Object.is(followed, value)) {
    setFollowed(value);
    setDraft(value);
  }
  return [draft, setDraft];
}
