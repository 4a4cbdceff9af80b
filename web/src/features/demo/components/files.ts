/** Local file checks of the upload and cropper demos (nothing is uploaded). */
export interface FileRule {
  /** MIME prefixes or exact types ('image/', 'application/pdf') or extensions ('.md'). */
  accept: string[];
  maxBytes: number;
}

export type FileProblem = { kind: 'type'; name: string } | { kind: 'size'; name: string; max: string } | { kind: 'empty'; name: string };

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function checkFile(file: { name: string; type: string; size: number }, rule: FileRule): FileProblem | null {
  const name = file.name.toLowerCase();
  const typeOk = rule.accept.some((a) => (a.startsWith('.') ? name.endsWith(a.toLowerCase()) : a.endsWith('/') ? file.type.startsWith(a) : file.type === a));
  if (!typeOk) return { kind: 'type', name: file.name };
  if (file.size === 0) return { kind: 'empty', name: file.name };
  if (file.size > rule.maxBytes) return { kind: 'size', name: file.name, max: formatBytes(rule.maxBytes) };
  return null;
}

/** Adds chosen files to a list: duplicates (same name and size) skipped, at most `limit` kept. */
export function addFiles<T extends { name: string; size: number }>(list: T[], added: T[], limit: number): { list: T[]; skipped: T[] } {
  const next = [...list];
  const skipped: T[] = [];
  for (const f of added) {
    if (next.length >= limit || next.some((x) => x.name === f.name && x.size === f.size)) skipped.push(f);
    else next.push(f);
  }
  return { list: next, skipped };
}
