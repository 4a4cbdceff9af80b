/** Pure rules of the custom table's column chooser. */
export interface ColumnState {
  key: string;
  visible: boolean;
}

export const toggleColumn = (cols: ColumnState[], key: string): ColumnState[] => {
  // At least one column stays visible.
  const target = cols.find((c) => c.key === key);
  if (target?.visible && cols.filter((c) => c.visible).length <= 1) return cols;
  return cols.map((c) => (c.key === key ? { ...c, visible: !c.visible } : c));
};

/** Moves a column by `delta` places (clamped); other columns keep their order. */
export function moveColumn(cols: ColumnState[], key: string, delta: number): ColumnState[] {
  const from = cols.findIndex((c) => c.key === key);
  if (from < 0) return cols;
  const to = Math.min(cols.length - 1, Math.max(0, from + delta));
  if (to === from) return cols;
  const next = [...cols];
  const [col] = next.splice(from, 1);
  next.splice(to, 0, col);
  return next;
}

/** Moves `key` to the place of `over` (drag and drop). */
export function dropColumn(cols: ColumnState[], key: string, over: string): ColumnState[] {
  const to = cols.findIndex((c) => c.key === over);
  const from = cols.findIndex((c) => c.key === key);
  if (from < 0 || to < 0) return cols;
  return moveColumn(cols, key, to - from);
}

export const visibleKeys = (cols: ColumnState[]): string[] => cols.filter((c) => c.visible).map((c) => c.key);

/** Restores a saved column state against the known keys: unknown keys dropped, new keys appended visible. */
export function restoreColumns(saved: unknown, keys: string[]): ColumnState[] {
  const list = Array.isArray(saved) ? (saved as ColumnState[]).filter((c) => c && keys.includes(c.key)) : [];
  const seen = new Set(list.map((c) => c.key));
  const merged = [...list.map((c) => ({ key: c.key, visible: c.visible !== false })), ...keys.filter((k) => !seen.has(k)).map((key) => ({ key, visible: true }))];
  return merged.some((c) => c.visible) ? merged : merged.map((c) => ({ ...c, visible: true }));
}
