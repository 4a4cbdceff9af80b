// Reports the gzip size of the initial JS: the entry chunk and every chunk it
// imports statically (what the browser must fetch before the first render),
// plus the same for the login and shell screens. Reads Vite's manifest.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file))).length;

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key].imports ?? [], seen);
  }
  return seen;
}
const kb = (keys) => ([...keys].reduce((sum, k) => sum + gz(manifest[k].file), 0) / 1024).toFixed(1);

const entry = Object.keys(manifest).filter((k) => manifest[k].isEntry);
const initial = closure(entry);
const find = (suffix) => Object.keys(manifest).find((k) => k.endsWith(suffix));
const login = closure([find('src/pages/shell/Login.tsx')], new Set(initial));
const shell = closure([find('src/layout/Shell.tsx'), find('src/features/home/pages/Home.tsx')], new Set(initial));
console.log(`initial JS (entry + static imports): ${kb(initial)} KB gzip`);
console.log(`login screen total: ${kb(login)} KB gzip`);
console.log(`home screen total (shell + home): ${kb(shell)} KB gzip`);
