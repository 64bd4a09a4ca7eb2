// ESLint for the TypeScript of the project: typescript-eslint's type-aware rules, and the layers of
// docs/architecture-intent.json as import rules (a part imports only the parts its arrows name).
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const intent = JSON.parse(readFileSync(new URL('./docs/architecture-intent.json', import.meta.url), 'utf8'));
const allowed = new Set(intent.arrows.map(([from, to]) => `${from}>${to}`));
const never = new Map(intent.never.map(([from, to, why]) => [`${from}>${to}`, why]));
const parts = Object.entries(intent.parts);
/** A part's files as globs: a folder is everything under it. */
const globs = (paths) => paths.map((path) => (path.endsWith('/') ? `./${path}**` : `./${path}`));
// Every pair of parts without an arrow is forbidden: the first part's files may not import the second's.
const layerZones = parts.flatMap(([from, { is: fromPaths }]) =>
  parts
    .filter(([to]) => to !== from && !allowed.has(`${from}>${to}`))
    .flatMap(([to, { is: toPaths }]) =>
      globs(toPaths).map((toPath) => ({
        target: globs(fromPaths),
        from: toPath,
        message: `${from} -> ${to}: ${never.get(`${from}>${to}`) ?? 'no such arrow in docs/architecture-intent.json'}`,
      })),
    ),
);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'var/**',
      'web/**',
      'bench/**',
      'bin/**',
      'clients/python/**',
      '**/*.generated.ts',
      'clients/typescript/schema.d.ts',
      'eslint.config.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Redis replies, JSON bodies and tap's assertions are `any` by nature; the schemas check them at the edges.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Templates of ids, counts and codes are the house's way of writing French texts.
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Header, address and text checks look for control characters on purpose.
      'no-control-regex': 'off',
      // A refusal's details are plain strings and numbers read from records typed `unknown`.
      '@typescript-eslint/no-base-to-string': 'off',
      // Methods are taken out of objects by destructuring throughout; none of them uses `this`.
      '@typescript-eslint/unbound-method': 'off',
      // A catch that passes on what it did not handle rethrows it as it came, whatever it is.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // Handlers are async by their interface (a tool, a stage), whether or not this one waits.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['test/**'],
    rules: {
      // Test servers answer from async handlers; a throw fails the test that waits for the answer.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      // tap queues `t.test(...)` and awaits it itself.
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
