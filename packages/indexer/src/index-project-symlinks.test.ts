import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexProject } from './index-project.js';
import { planFileJobs } from './queue/plan-file-jobs.js';
import { indexFile } from './queue/index-file.js';
import { openTestIndex } from './test-index.js';

const RETRY = '/** Waits before the next attempt. */\nexport function retryDelay(attempt: number): number {\n  return 100 * 2 ** attempt;\n}\n';

/** A project with src/retry.ts and a copy of it at src/retry-link.ts, as an index written before links were skipped holds it. */
function project(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-idx-links-')));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src/retry.ts'), RETRY);
  writeFileSync(path.join(root, 'src/retry-link.ts'), RETRY);
  return root;
}

/** Replaces the copy by a link to src/retry.ts, and adds a link to the src directory and a loop of links. */
function linkUp(root: string): void {
  rmSync(path.join(root, 'src/retry-link.ts'));
  symlinkSync('retry.ts', path.join(root, 'src/retry-link.ts'));
  symlinkSync('src', path.join(root, 'lib'));
  symlinkSync('loop-b', path.join(root, 'src/loop-a'));
  symlinkSync('loop-a', path.join(root, 'src/loop-b'));
}

describe('links inside the project', () => {
  it('index a file once, under its real path: a run removes what an earlier run indexed under a link', async () => {
    const root = project();
    const base = await openTestIndex(root);
    expect(await indexProject(base)).toMatchObject({ files: 2 });
    linkUp(root);
    const report = await indexProject(base);
    expect(report).toMatchObject({ files: 1, deleted: 1 });
    expect([...report.skipped].sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'lib', reason: 'symlink-inside', detail: 'links to src/' },
      { path: 'src/loop-a', reason: 'symlink-loop', detail: 'links to loop-b, a chain of links that leads back to itself' },
      { path: 'src/loop-b', reason: 'symlink-loop', detail: 'links to loop-a, a chain of links that leads back to itself' },
      expect.objectContaining({ path: 'src/retry-link.ts', reason: 'symlink-inside', detail: 'links to src/retry.ts' }),
    ]);
    expect((await base.store.listFiles()).map((f) => f.path)).toEqual(['src/retry.ts']);
    // A run limited to the link (index --paths, a watcher event) judges it the same way.
    expect(await indexProject({ ...base, paths: ['src/retry-link.ts'] })).toMatchObject({
      files: 1,
      added: 0,
      skipped: [{ path: 'src/retry-link.ts', reason: 'symlink-inside', detail: 'links to src/retry.ts' }],
    });
    await base.store.close();
  });

  it('the queue plans a job for a link the index holds, and the worker removes it instead of reading through the link', async () => {
    const root = project();
    const base = await openTestIndex(root);
    await indexProject(base);
    linkUp(root);
    const plan = await planFileJobs(base);
    expect(plan.paths).toEqual(['src/retry-link.ts']);
    expect(await indexFile({ ...base, path: 'src/retry-link.ts' })).toEqual({ path: 'src/retry-link.ts', outcome: 'deleted', chunks: 0 });
    expect(await indexFile({ ...base, path: 'src/loop-a' })).toEqual({ path: 'src/loop-a', outcome: 'deleted', chunks: 0 });
    expect((await base.store.listFiles()).map((f) => f.path)).toEqual(['src/retry.ts']);
    await base.store.close();
  });
});
