/**
 * Cursor paging for lists served with an opaque cursor: the server can only
 * go forward, so the pager keeps the cursors of the pages already seen to go
 * back. Page 1 has no cursor.
 */
export interface CursorPages {
  /** cursors[i] is the cursor that fetches page i+1 (cursors[0] = null). */
  cursors: (string | null)[];
  page: number;
}

export const firstPage = (): CursorPages => ({ cursors: [null], page: 1 });

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
