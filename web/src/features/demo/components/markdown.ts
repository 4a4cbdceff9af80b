/** Pure text edits of the markdown editor's toolbar. */
export type MarkdownAction = 'bold' | 'italic' | 'heading' | 'quote' | 'code' | 'link' | 'list' | 'table';

export interface Edit {
  text: string;
  start: number;
  end: number;
}

const WRAP: Partial<Record<MarkdownAction, [string, string, string]>> = {
  bold: ['**', '**', 'bold'],
  italic: ['*', '*', 'italic'],
  code: ['`', '`', 'code'],
  link: ['[', '](https://example.com)', 'link'],
};
const LINE: Partial<Record<MarkdownAction, string>> = { heading: '## ', quote: '> ', list: '- ' };

/** Applies an action to the selection [start, end) and returns the new text and selection. */
export function applyMarkdown(text: string, start: number, end: number, action: MarkdownAction): Edit {
  const a = Math.max(0, Math.min(start, end, text.length));
  const b = Math.max(a, Math.min(Math.max(start, end), text.length));
  const wrap = WRAP[action];
  if (wrap) {
    const [open, close, placeholder] = wrap;
    const inner = text.slice(a, b) || placeholder;
    return { text: text.slice(0, a) + open + inner + close + text.slice(b), start: a + open.length, end: a + open.length + inner.length };
  }
  const prefix = LINE[action];
  if (prefix) {
    const lineStart = text.lastIndexOf('\n', a - 1) + 1;
    const block = text.slice(lineStart, b);
    const prefixed = block
      .split('\n')
      .map((l) => prefix + l)
      .join('\n');
    return { text: text.slice(0, lineStart) + prefixed + text.slice(b), start: lineStart, end: lineStart + prefixed.length };
  }
  const table = '\n| A | B |\n| --- | --- |\n| 1 | 2 |\n';
  return { text: text.slice(0, b) + table + text.slice(b), start: b + 1, end: b + table.length };
}
