// One lint config for the workspace: typescript-eslint's recommended rules, no console in package
// code, and import boundaries between packages as DESIGN.md draws them.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Which @monorag packages each package may import (DESIGN.md, "Packages"). */
const allowed = {
  shared: [],
  secrets: ['shared'],
  chunker: ['shared'],
  store: ['shared'],
  'embedder-client': ['shared'],
  indexer: ['shared', 'secrets', 'chunker', 'store', 'embedder-client'],
  retriever: ['shared', 'secrets', 'store', 'embedder-client'],
  mcp: ['shared', 'retriever', 'indexer'],
  gateway: ['shared', 'mcp', 'retriever'],
  cli: ['shared', 'secrets', 'chunker', 'store', 'embedder-client', 'indexer', 'retriever', 'mcp', 'gateway'],
};
const all = Object.keys(allowed);

const boundaries = Object.entries(allowed).map(([pkg, deps]) => ({
  files: [`packages/${pkg}/src/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...all
            .filter((other) => other !== pkg && !deps.includes(other))
            .map((other) => ({ group: [`@monorag/${other}`, `@monorag/${other}/*`], message: `@monorag/${pkg} may not import @monorag/${other} (see DESIGN.md).` })),
          { group: ['../../*/src/*', '../../../packages/*'], message: 'Import other packages by their @monorag name.' },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.venv/**', 'eval/.corpora/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: ['packages/*/src/**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: ['packages/*/src/**/*.test.ts', 'packages/shared/src/config.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only the config loader (@monorag/shared loadConfig) reads process.env.' }],
    },
  },
  ...boundaries,
);
