/** Pure helpers of numbered pages (the `Pager` of the lists). */
export const pageCount = (total: number, pageSize: number): number => Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));

/** Clamps a page number into 1..pageCount. */
export const clampPage = (page: number, total: number, pageSize: number): number =>
  Math.min(Math.max(1, Math.floor(page) || 1), pageCount(total, pageSize));

/**
 * The page buttons to show: always the first and last page, the current page
 * with `siblings` on each side, and 'gap' where pages are skipped.
 */
export function pageItems(current: number, count: number, siblings = 1): (number | 'gap')[] {
  // Few pages: all of them.
  if (count <= 5 + 2 * siblings) return Array.from({ length: count }, (_, i) => i + 1);
  const pages = new Set<number>([1, count]);
  for (let p = current - siblings; p <= current + siblings; p++) if (p >= 1 && p <= count) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  sorted.forEach((p, i) => {
    if (i > 0) {
      const prev = sorted[i - 1];
      if (p - prev === 2) out.push(prev + 1);
      else if (p - prev > 2) out.push('gap');
    }
    out.push(p);
  });
  return out;
}

/** The slice of a local list shown on a page. */
export const pageSlice = <T>(list: readonly T[], page: number, pageSize: number): T[] =>
  list.slice((clampPage(page, list.length, pageSize) - 1) * pageSize, clampPage(page, list.length, pageSize) * pageSize);
