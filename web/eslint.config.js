// Lint of the SPA: the rules of hooks and honest effect dependencies,
// typescript-eslint's recommended set, and the import boundaries of the
// feature folders; no style rules.
//
// eslint-plugin-react-hooks 7 also puts the React Compiler's diagnostics
// (set-state-in-effect, refs, purity, static-components, immutability, …)
// in its "recommended" preset. This app is not built with the compiler, and
// those rules judge whether a component can be memoised by it: what they
// flag here (a dialog's form reset when it opens, Date.now() in a render,
// a ref read during render, an icon picked from a static map) is correct
// React without it. They are left off until the app adopts the compiler;
// they also triple the lint's time (the compiler runs on every file).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const HERE = import.meta.dirname;
/** The feature folders, read from the tree: a new one is bounded the day it is made. */
const FEATURES = readdirSync(join(HERE, 'src/features'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

/**
 * Where an import may point (paths resolved, so `@/…` and `../…` alike):
 * - a feature reaches another feature only through its public face, its
 *   `index.ts`;
 * - the kit (everything in `src/` but `features/`, the page registry with
 *   the list of the features' strings, and the test support) never imports
 *   a feature: features build on the kit, not the other way round. The
 *   registry (`pages/registry.ts`, `pages/featureStrings.ts`) is where the
 *   features are put together: it maps the route keys to their pages.
 */
export const boundaryZones = [
  ...FEATURES.map((name) => ({
    target: `./src/features/${name}/**`,
    from: `./src/features/!(${name})/**`,
    except: ['**/src/features/*/index.ts'],
    message: `A feature imports another feature only from its public face (@/features/<name>, its index.ts).`,
  })),
  {
    target: ['./src/!(features|pages|test)/**', './src/pages/!(registry|featureStrings).ts', './src/pages/*/**', './src/*.{ts,tsx}'],
    from: './src/features',
    message: 'The kit never imports a feature; a feature builds on the kit (the page registry puts the features together).',
  },
];

export default defineConfig([
  { ignores: ['dist/**'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    extends: [tseslint.configs.recommended],
    plugins: { 'react-hooks': reactHooks },
    // A disable that no longer suppresses anything is an error, so none outlives its reason.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // The conventions of tsc's noUnusedLocals/noUnusedParameters: a leading
      // underscore marks an unused binding on purpose; so does a property
      // taken out of an object by a rest pattern.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: join(HERE, 'tsconfig.json') })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: HERE, zones: boundaryZones }],
    },
  },
]);
