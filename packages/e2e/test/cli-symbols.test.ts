import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo } from './git-repo.js';

let embedder: FakeEmbeddingHttp;
let env: Record<string, string>;
beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
  env = { EMBEDDING_URL: embedder.url };
});
afterAll(async () => {
  await embedder?.stop();
});

describe('monorag symbols on module-level constants', () => {
  it('symbols MAX_RETRIES --json lists the Python and Go constants (and the others), not a function-local one', async () => {
    const repo = makeGitRepo({
      'a.py': 'MAX_RETRIES = 5\n\nclass A:\n    LIMIT = 3\n\ndef f():\n    MAX_RETRIES = 6\n    return MAX_RETRIES\n',
      'a.go': 'package a\n\nconst MaxRetries = 5\n\nconst (\n\tMAX_RETRIES = 1\n\tB = 2\n)\n\nvar defaultName = "x"\n',
      'a.ts': 'export const MAX_RETRIES = 5;\nlet x = 1;\n',
    });
    const index = await runCli(['index', repo, '-q'], env);
    expect(index.code, index.stderr).toBe(0);
    const run = await runCli(['symbols', 'MAX_RETRIES', '--json', '--project', repo], env);
    expect(run.code, run.stderr).toBe(0);
    const { results } = JSON.parse(run.stdout) as { results: { path: string }[] };
    expect([...results].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'a.go', startLine: 6, endLine: 6, kind: 'constant', name: 'MAX_RETRIES', enclosing: null },
      { path: 'a.py', startLine: 1, endLine: 1, kind: 'constant', name: 'MAX_RETRIES', enclosing: null },
      { path: 'a.ts', startLine: 1, endLine: 1, kind: 'constant', name: 'MAX_RETRIES', enclosing: null },
    ]);
    const limit = await runCli(['symbols', 'LIMIT', '--project', repo], env);
    expect(limit.stdout.trim()).toBe('a.py:4-4  constant  LIMIT  in A');
    const variable = await runCli(['symbols', 'defaultName', '--json', '--project', repo], env);
    expect(JSON.parse(variable.stdout)).toEqual({ results: [{ path: 'a.go', startLine: 10, endLine: 10, kind: 'variable', name: 'defaultName', enclosing: null }] });
  }, 120_000);

  it('prints a path with a control character quoted with escapes, on one line, as search does', async () => {
    const repo = makeGitRepo({ 'src/new\nline.py': 'def newline_fn():\n    return 1\n' });
    expect((await runCli(['index', repo, '-q'], env)).code).toBe(0);
    const run = await runCli(['symbols', 'newline_fn', '--project', repo], env);
    expect(run.stdout).toBe('"src/new\\nline.py":1-2  function  newline_fn\n');
  }, 120_000);

  it('finds a test by its whole title pasted from the file, though the symbol table keeps only its first 120 characters', async () => {
    const title = 'retries the request after a 503 response, waiting for the Retry-After header when the server sends one, and gives up after three attempts';
    expect(title.length).toBeGreaterThan(120);
    const repo = makeGitRepo({ 'test/retry.test.js': `test(\n  '${title}',\n  () => {\n    expect(1).toBe(1);\n  },\n);\n` });
    expect((await runCli(['index', repo, '-q'], env)).code).toBe(0);
    // Stored cut after its last whole word that fits in 120 characters, with an ellipsis.
    const stored = 'retries the request after a 503 response, waiting for the Retry-After header when the server sends one, and gives up…';
    const expected = { results: [{ path: 'test/retry.test.js', startLine: 1, endLine: 6, kind: 'test', name: stored, enclosing: null }] };
    const run = await runCli(['symbols', title, '--json', '--project', repo], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expected);
    // Written over two lines, as a wrapped title reads.
    const wrapped = await runCli(['symbols', title.replace(', waiting', ',\n  waiting'), '--json', '--project', repo], env);
    expect(JSON.parse(wrapped.stdout)).toEqual(expected);
  }, 120_000);
});
