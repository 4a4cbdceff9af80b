/**
 * Cursor paging for lists served with an opaque cursor: the server can only
 * go forward, so the pager keeps the cursors of the pages already seen to go
 * back. Page 1 has no cursor.
 */
export interface CursorPages {
  /** cursors[i] is the cursor that fetches page i+1 (cursors[0] = null). */
  cursors: (string | null)[];
  page: number;
  /**
   * `oldest`: the pages are walked from the oldest item forward (the jump to
   * the last page); `page` then counts from the end (1 = the last page).
   */
  direction?: 'newest' | 'oldest';
}

export const firstPage = (): CursorPages => ({ cursors: [null], page: 1 });

/** The last page (the oldest items), walked toward the newer ones. */
export const lastPage = (): CursorPages => ({ cursors: [null], page: 1, direction: 'oldest' });

export const fromOldest = (s: CursorPages) => s.direction === 'oldest';

/**
 * Rows to fetch for the current page. From the oldest end, the first fetch
 * takes only the remainder (`total % pageSize`), so the pages there are the
 * same as the ones reached from the newest end.
 */
export function fetchSize(s: CursorPages, pageSize: number, total: number | null | undefined): number {
  if (fromOldest(s) && s.page === 1 && total != null && total > 0) return total % pageSize || pageSize;
  return pageSize;
}

/** Number of pages when the total is known. */
export function pageCount(total: number | null | undefined, pageSize: number): number | null {
  return total == null ? null : Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The page number as the user reads it (1 = newest). From the oldest end it
 * is known only with the total; null otherwise ("n-th page from the end").
 */
export function pageNumber(s: CursorPages, pageSize: number, total: number | null | undefined): number | null {
  if (!fromOldest(s)) return s.page;
  const count = pageCount(total, pageSize);
  return count == null ? null : Math.max(1, count - s.page + 1);
}

/** Toward the newer items (the left arrow). */
export function goNewer(s: CursorPages): CursorPages {
  return fromOldest(s) ? goNext(s) : goPrev(s);
}

/** Toward the older items (the right arrow). */
export function goOlder(s: CursorPages): CursorPages {
  return fromOldest(s) ? goPrev(s) : goNext(s);
}

export function hasNewer(s: CursorPages): boolean {
  return fromOldest(s) ? hasNext(s) : s.page > 1;
}

export function hasOlder(s: CursorPages): boolean {
  return fromOldest(s) ? s.page > 1 : hasNext(s);
}

export function currentCursor(s: CursorPages): string | null {
  return s.cursors[s.page - 1] ?? null;
}

/** After loading the current page: remembers where the next one starts. */
export function withNext(s: CursorPages, next: string | null): CursorPages {
  const cursors = s.cursors.slice(0, s.page);
  if (next) cursors.push(next);
  return { ...s, cursors };
}

export function hasNext(s: CursorPages): boolean {
  return s.cursors.length > s.page;
}

export function goNext(s: CursorPages): CursorPages {
  return hasNext(s) ? { ...s, page: s.page + 1 } : s;
}

export function goPrev(s: CursorPages): CursorPages {
  return s.page > 1 ? { ...s, page: s.page - 1 } : s;
}
