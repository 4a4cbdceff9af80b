/** Deterministic demo series for the dashboards (a seeded generator, so screenshots are stable). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `n` values around `base` with a gentle trend and noise, rounded. */
export function series(n: number, base: number, spread: number, seed: number, trend = 0): number[] {
  const rnd = seeded(seed);
  return Array.from({ length: n }, (_, i) => Math.round(base + trend * i + (rnd() - 0.5) * 2 * spread));
}

/** Labels of the last `n` days ending today, as 'MM-DD'. */
export function lastDays(n: number, today = new Date()): string[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (n - 1 - i));
    return `${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
}
