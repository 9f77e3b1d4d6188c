import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INDEX_LOCK_FILE } from '@monorag/indexer';
import { bundledQueryAdapter, adaptQueryVector } from '@monorag/retriever';
import { openSqliteStore } from '@monorag/store';
import type { Chunk } from '@monorag/shared';
import { openRetriever } from './open-retriever.js';
import { createProjectContext, ensureDataDir } from './project-context.js';
import { readStatusReport } from './commands/status-command.js';
import { serveEmbeddings } from './test-embedding-server.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

describe('openRetriever: freshness without a watcher (search, status)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('takes a run of another process when asked, so a run that ends while the work tree is read does not make the answer fresh', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-open-retriever-')));
    dirs.push(root);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env: GIT_ENV });
    writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');
    execFileSync('git', ['add', '-A'], { cwd: root, env: GIT_ENV });
    execFileSync('git', ['commit', '-q', '-m', 'init'], { cwd: root, env: GIT_ENV });
    const context = createProjectContext({ project: root, argName: '--project' });
    ensureDataDir(context);
    // An up-to-date index, as a completed run leaves it.
    const written = await openSqliteStore({ file: context.storeFile, identity: { model: 'fake', dim: 8, chunkerVersion: 't' } });
    await written.setMeta('indexedAt', String(Date.now() + 1000));
    await written.setMeta('indexedCommit', execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim());
    await written.close();
    const index = await openRetriever(context);
    try {
      expect(await index.readFreshness()).toMatchObject({ indexing: false, stale: false });
      // Another process (a watcher, a git hook's run) holds the index lock: its run is in progress.
      const lock = path.join(context.dataDir, INDEX_LOCK_FILE);
      writeFileSync(lock, `${process.pid}\n`);
      const asked = index.readFreshness();
      // Its run ends before the answer is made (while git is asked about HEAD and the work tree).
      rmSync(lock);
      expect(await asked).toMatchObject({ indexing: true, stale: true, warning: 'Results may be out of date: an index update is in progress.' });
      expect(await index.readFreshness()).toMatchObject({ indexing: false, stale: false });
    } finally {
      await index.close();
    }
  });
});

describe('openRetriever: search.queryAdapter', () => {
  const MINILM = 'sentence-transformers/all-MiniLM-L6-v2';
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A one-line chunk of `file` (its content is irrelevant: the test searches by vector only). */
  const chunkOf = (file: string): Chunk => ({
    id: file.replace(/\W/g, ''), path: file, language: 'typescript', startLine: 1, endLine: 1, kind: 'function', symbol: null, scopes: [], header: file, content: 'x', contentHash: file,
  });

  it.each([
    [true, 'adapted.ts', 'active'],
    [false, 'raw.ts', 'off'],
  ])('with search.queryAdapter %s, dense search uses the %s vector and status says %s', async (enabled, expected, state) => {
    // The model's query vector q = e1; raw.ts holds q itself, adapted.ts holds M q / |M q| (the bundled adapter).
    const q = Array.from({ length: 384 }, (_, i) => (i === 0 ? 1 : 0));
    const adapter = (await bundledQueryAdapter(MINILM, 384))!;
    const adapted = adaptQueryVector(adapter, Float32Array.from(q));
    const server = await serveEmbeddings({ model: MINILM, vector: q });
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-open-retriever-')));
    dirs.push(root);
    writeFileSync(path.join(root, 'monorag.json'), JSON.stringify({ embedding: { url: server.url }, search: { queryAdapter: enabled } }));
    const context = createProjectContext({ project: root, argName: '--project' });
    ensureDataDir(context);
    const written = await openSqliteStore({ file: context.storeFile, identity: { model: MINILM, dim: 384, chunkerVersion: 't' } });
    for (const [file, vector] of [['raw.ts', Float32Array.from(q)], ['adapted.ts', adapted]] as const) {
      await written.writeFile({ path: file, contentHash: file, size: 1, language: 'typescript', chunkCount: 1, indexedAt: 1 }, [chunkOf(file)], [vector]);
    }
    await written.close();
    const index = await openRetriever(context);
    try {
      const response = await index.retriever.search({ query: 'where is the retry loop', mode: 'dense', limit: 1 });
      expect(response.results.map((r) => r.path)).toEqual([expected]);
      const { queryAdapter } = await readStatusReport(context, index);
      expect(queryAdapter.state).toBe(state);
      // Off: named where it was set.
      if (!enabled) expect(queryAdapter.detail).toBe(`off ("search.queryAdapter": false in ${path.join(root, 'monorag.json')}): dense search uses the model's own query vectors`);
    } finally {
      await index.close();
      await new Promise((resolve) => server.server.close(resolve));
    }
  });
});
