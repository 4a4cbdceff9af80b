// Lint of the SPA (issue 11 item 7): the rules of hooks and honest effect
// dependencies, plus typescript-eslint's recommended set; no style rules.
//
// eslint-plugin-react-hooks 7 also puts the React Compiler's diagnostics
// (set-state-in-effect, refs, purity, static-components, immutability, …)
// in its "recommended" preset. This app is not built with the compiler, and
// those rules judge whether a component can be memoised by it: what they
// flag here (a dialog's form reset when it opens, Date.now() in a render,
// a ref read during render, an icon picked from a static map) is correct
// React without it. They are left off until the app adopts the compiler;
// they also triple the lint's time (the compiler runs on every file).
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
]);
