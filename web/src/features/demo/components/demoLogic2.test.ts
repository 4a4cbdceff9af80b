import { describe, expect, it } from 'vitest';
import { toApiGraph, toRenderData, validateGraph, type Graph } from './graph';
import { buildRows, columnWidths, fileName, mergedHeader, toCsv, type ExportColumn } from './excelRows';
import { addFiles, checkFile, formatBytes } from './files';
import { applyMarkdown } from './markdown';
import { frameable, iframeViewPath, safeFrameUrl, searchTarget } from './iframeUrl';
import { reorder } from './reorder';
import { encodeWav, melody } from './media';
import { emptyStationForm, validateStationForm, validateTransfer } from './formRules';
import { lastDays, series } from './demoSeries';
import { rotatedSize } from './crop';
import { sanitizeHtml } from './sanitize';

describe('workflow graph', () => {
  const g: Graph = {
    nodes: [
      { id: 'a', type: 'start', x: 100, y: 100, text: '开始' },
      { id: 'b', type: 'user', x: 300, y: 100, text: '审批' },
      { id: 'c', type: 'end', x: 500, y: 100, text: '结束' },
    ],
    edges: [
      { id: 'e1', type: 'polyline', sourceNodeId: 'a', targetNodeId: 'b' },
      { id: 'e2', type: 'polyline', sourceNodeId: 'b', targetNodeId: 'c', text: 'Y' },
    ],
  };
  it('accepts a valid graph', () => expect(validateGraph(g)).toEqual([]));
  it('reports unknown types, dangling edges, duplicates, missing start/end', () => {
    const bad: Graph = {
      nodes: [{ id: 'a', type: 'robot' as never, x: 0, y: 0, text: '' }, { id: 'a', type: 'rect', x: 0, y: 0, text: '' }],
      edges: [{ id: 'e', type: 'polyline', sourceNodeId: 'a', targetNodeId: 'zz' }],
    };
    expect(validateGraph(bad).map((p) => p.kind).sort()).toEqual(['danglingEdge', 'duplicateId', 'noEnd', 'noStart', 'unknownType']);
  });
  it("converts LogicFlow's data (text objects, float points) to the API form", () => {
    const api = toApiGraph({
      nodes: [{ id: 'a', type: 'start', x: 10.4, y: 20.6, text: { x: 1, y: 2, value: 'Go' } }],
      edges: [{ id: 'e', type: 'polyline', sourceNodeId: 'a', targetNodeId: 'a', pointsList: [{ x: 1.2, y: 3.7 }], text: { value: 'N' } }],
    });
    expect(api).toEqual({
      nodes: [{ id: 'a', type: 'start', x: 10, y: 21, text: 'Go' }],
      edges: [{ id: 'e', type: 'polyline', sourceNodeId: 'a', targetNodeId: 'a', pointsList: [{ x: 1, y: 4 }], text: 'N' }],
    });
  });
  it('drops unknown node types and their edges before rendering', () => {
    const r = toRenderData({ nodes: [...g.nodes, { id: 'x', type: 'robot' as never, x: 0, y: 0, text: '' }], edges: [...g.edges, { id: 'e3', type: 'polyline', sourceNodeId: 'x', targetNodeId: 'a' }] });
    expect(r.nodes.map((n) => n.id)).toEqual(['a', 'b', 'c']);
    expect(r.edges.map((e) => e.id)).toEqual(['e1', 'e2']);
  });
});

describe('excel rows', () => {
  type R = { id: string; name: string; n: number };
  const cols: ExportColumn<R>[] = [
    { key: 'id', header: 'ID', value: (r) => r.id },
    { key: 'name', header: '名称', value: (r) => r.name, group: 'Basic' },
    { key: 'n', header: 'N', value: (r) => r.n, group: 'Basic' },
  ];
  it('builds a header and a row per item', () => {
    expect(buildRows([{ id: '1', name: 'a', n: 2 }], cols)).toEqual([
      ['ID', '名称', 'N'],
      ['1', 'a', 2],
    ]);
  });
  it('merges group headers across and lone columns down', () => {
    expect(mergedHeader(cols)).toEqual({
      rows: [
        ['ID', 'Basic', 'Basic'],
        ['ID', '名称', 'N'],
      ],
      merges: [
        { top: 1, left: 1, bottom: 2, right: 1 },
        { top: 1, left: 2, bottom: 1, right: 3 },
      ],
    });
  });
  it('sizes columns (CJK double) and quotes CSV', () => {
    expect(columnWidths([['ab', '充电站充电站充电站充电站']], 4, 20)).toEqual([4, 20]);
    expect(toCsv([['a,b', 'say "hi"', 3]])).toBe('\ufeff"a,b","say ""hi""",3');
    expect(fileName('../报表:1', 'xlsx')).toBe('..报表1.xlsx');
    expect(fileName('', 'csv')).toBe('export.csv');
  });
});

describe('local file checks', () => {
  const rule = { accept: ['image/', '.md'], maxBytes: 1024 };
  it('checks type, size and emptiness', () => {
    expect(checkFile({ name: 'a.png', type: 'image/png', size: 10 }, rule)).toBeNull();
    expect(checkFile({ name: 'README.MD', type: '', size: 10 }, rule)).toBeNull();
    expect(checkFile({ name: 'a.exe', type: 'application/x-msdownload', size: 10 }, rule)?.kind).toBe('type');
    expect(checkFile({ name: 'a.png', type: 'image/png', size: 2048 }, rule)).toEqual({ kind: 'size', name: 'a.png', max: '1.0 KB' });
    expect(checkFile({ name: 'a.png', type: 'image/png', size: 0 }, rule)?.kind).toBe('empty');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
  it('skips duplicates and files over the limit', () => {
    const r = addFiles([{ name: 'a', size: 1 }], [{ name: 'a', size: 1 }, { name: 'b', size: 1 }, { name: 'c', size: 1 }], 2);
    expect(r.list.map((f) => f.name)).toEqual(['a', 'b']);
    expect(r.skipped.map((f) => f.name)).toEqual(['a', 'c']);
  });
});

describe('markdown toolbar', () => {
  it('wraps the selection or a placeholder', () => {
    expect(applyMarkdown('hello world', 6, 11, 'bold')).toEqual({ text: 'hello **world**', start: 8, end: 13 });
    expect(applyMarkdown('', 0, 0, 'italic').text).toBe('*italic*');
  });
  it('prefixes the selected lines', () => {
    expect(applyMarkdown('a\nb\nc', 2, 5, 'list').text).toBe('a\n- b\n- c');
    expect(applyMarkdown('title', 3, 3, 'heading').text).toBe('## title');
  });
});

describe('iframe urls', () => {
  it('allows only absolute http(s)', () => {
    expect(safeFrameUrl('https://example.com/a')).toBe('https://example.com/a');
    expect(safeFrameUrl('javascript:alert(1)')).toBeNull();
    expect(safeFrameUrl('data:text/html,x')).toBeNull();
    expect(safeFrameUrl('/relative')).toBeNull();
    expect(safeFrameUrl(null)).toBeNull();
    // Framed only when on the allow-list the CSP's frame-src lists too.
    expect(frameable('https://developer.mozilla.org/en-US/')).toBe(true);
    expect(frameable(searchTarget('charging station')!)).toBe(true);
    expect(frameable('https://example.com/a')).toBe(false);
    expect(frameable('http://developer.mozilla.org/')).toBe(false);
  });
  it('turns the search box into a url or a web search', () => {
    expect(searchTarget('example.com/docs')).toBe('https://example.com/docs');
    expect(searchTarget('charging station')).toBe('https://www.bing.com/search?q=charging%20station');
    expect(searchTarget('  ')).toBeNull();
    expect(iframeViewPath('https://a.b/?x=1&y=2', 'T')).toBe('/other/iframe/view?url=https%3A%2F%2Fa.b%2F%3Fx%3D1%26y%3D2&title=T');
  });
});

describe('drag helpers', () => {
  it('reorders', () => {
    expect(reorder([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(reorder([1, 2, 3], 2, -5)).toEqual([3, 1, 2]);
    expect(reorder([1, 2], 9, 0)).toEqual([1, 2]);
  });
});

describe('generated media and series', () => {
  it('writes a valid WAV header', () => {
    const wav = encodeWav(melody([440], 0.01, 8000), 8000);
    const text = (o: number) => String.fromCharCode(...wav.slice(o, o + 4));
    expect([text(0), text(8), text(12), text(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(wav.length).toBe(44 + 80 * 2);
    expect(new DataView(wav.buffer).getUint32(24, true)).toBe(8000);
  });
  it('is deterministic', () => {
    expect(series(5, 100, 10, 3)).toEqual(series(5, 100, 10, 3));
    expect(lastDays(3, new Date(2026, 0, 1))).toEqual(['12-30', '12-31', '01-01']);
    const r = rotatedSize(100, 50, 90);
    expect([Math.round(r.width), Math.round(r.height)]).toEqual([50, 100]);
  });
});

describe('form rules', () => {
  it('flags every empty required field, then passes a valid form', () => {
    const e = validateStationForm(emptyStationForm());
    expect(Object.keys(e).sort()).toEqual(['agree', 'date', 'name', 'ownership', 'phone', 'price', 'region', 'types']);
    const ok = { ...emptyStationForm(), name: '一号站', phone: '13800138000', region: ['1', '2', '3'], date: '2026-01-01', types: ['dc'], ownership: 'public', price: '0.8', agree: true };
    expect(validateStationForm(ok)).toEqual({});
    expect(validateStationForm({ ...ok, phone: '123', price: '1.234', email: 'x@' })).toEqual({ phone: 'phone', price: 'price', email: 'email' });
  });
  it('checks the transfer step', () => {
    expect(validateTransfer({ payAccount: 'a', receiverAccount: 'bad', receiverName: 'n', amount: '0' })).toEqual({ receiverAccount: 'account', amount: 'price' });
    expect(validateTransfer({ payAccount: 'a', receiverAccount: 'x@y.cn', receiverName: 'n', amount: '10.5' })).toEqual({});
  });
});

describe('sanitising', () => {
  it('removes scripts and handlers', () => {
    const out = sanitizeHtml('<p onclick="x()">hi<script>alert(1)</script><a href="javascript:alert(1)">l</a></p>');
    expect(out).not.toMatch(/script|onclick|javascript:/);
    expect(out).toContain('<p>hi');
  });
});
