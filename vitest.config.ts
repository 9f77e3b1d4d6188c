import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['monorag-source'] },
  ssr: { resolve: { conditions: ['monorag-source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'eval/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'eval/.corpora/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One temporary directory per run (scripts/vitest-temp-dir.ts); the built CLI the end-to-end tests run (scripts/vitest-build.ts).
    globalSetup: ['scripts/vitest-temp-dir.ts', 'scripts/vitest-build.ts'],
  },
});
