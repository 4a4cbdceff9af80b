// node --test bench/web/frontend.test.mjs: the bundle half of the
// front-end bench on a small made-up dist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleFigures, eagerAssets } from './frontend.mjs';

const HTML = `<!doctype html><html><head>
<link rel="icon" type="image/svg+xml" href="./favicon.svg" />
<link rel="manifest" href="./manifest.webmanifest" />
<script type="module" crossorigin src="./static/index-A.js"></script>
<link rel="modulepreload" crossorigin href="./static/react-B.js">
<link rel="prefetch" href="./static/later-C.js">
<link rel="stylesheet" crossorigin href="./static/index-D.css">
</head><body><div id="root"></div></body></html>`;

test('eager assets: the entry script, modulepreloads and stylesheets, not icons or prefetches', () => {
  assert.deepEqual(eagerAssets(HTML), [
    { kind: 'js', href: './static/index-A.js' },
    { kind: 'js', href: './static/react-B.js' },
    { kind: 'css', href: './static/index-D.css' },
  ]);
});

test('bundle figures: gzip sums of the eager files and the largest chunks first', () => {
  const dist = mkdtempSync(join(tmpdir(), 'frontend-bench-'));
  try {
    mkdirSync(join(dist, 'static'));
    writeFileSync(join(dist, 'index.html'), HTML);
    const files = {
      'index-A.js': 'console.log("entry");'.repeat(50),
      'react-B.js': Array.from({ length: 400 }, (_, i) => `var v${i}=${i * 7919};`).join(''),
      'later-C.js': Array.from({ length: 3000 }, (_, i) => `f(${(i * 104729) % 9973});`).join(''),
      'index-D.css': 'body{margin:0}',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dist, 'static', name), text);
    const gz = (name) => gzipSync(Buffer.from(files[name])).length;
    const b = bundleFigures(dist);
    assert.equal(b.initial.js.files, 2);
    assert.equal(b.initial.js.gzip, gz('index-A.js') + gz('react-B.js'));
    assert.equal(b.initial.js.raw, files['index-A.js'].length + files['react-B.js'].length);
    assert.equal(b.initial.css.gzip, gz('index-D.css'));
    assert.equal(b.chunkCount, 4);
    assert.equal(b.largest[0].file, 'static/later-C.js');
    assert.equal(b.largest[0].eager, false);
    assert.ok(b.largest.every((c, i) => i === 0 || b.largest[i - 1].gzip >= c.gzip));
    // A file index.html loads but the build lacks is an error, not a zero.
    rmSync(join(dist, 'static', 'react-B.js'));
    assert.throws(() => bundleFigures(dist), /react-B\.js/);
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});
