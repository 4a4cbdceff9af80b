import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, SCHEMA } from '../../scripts/gen-api.mjs';

describe('the API types (schema.d.ts)', () => {
  it('are what openapi-typescript gives for docs/openapi.json (else: npm run gen:api)', async () => {
    const committed = readFileSync(SCHEMA, 'utf8');
    const generated = await generate({ silent: true });
    // toBe would print two 12,000-line files; the first differing line says enough.
    if (generated !== committed) {
      const a = committed.split('\n');
      const b = generated.split('\n');
      let line = 0;
      while (line < Math.max(a.length, b.length) && a[line] === b[line]) line += 1;
      expect.fail(
        `src/api/schema.d.ts differs from docs/openapi.json from line ${line + 1}:\n` +
          `  committed: ${a[line] ?? '(end of file)'}\n  generated: ${b[line] ?? '(end of file)'}\n` +
          'Regenerate it with `npm --prefix web run gen:api` and commit the result.',
      );
    }
  });
});
