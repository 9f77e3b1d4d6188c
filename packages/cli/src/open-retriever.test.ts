import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INDEX_LOCK_FILE } from '@monorag/indexer';
import { openSqliteStore } from '@monorag/store';
import { openRetriever } from './open-retriever.js';
import { createProjectContext, ensureDataDir } from './project-context.js';

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
