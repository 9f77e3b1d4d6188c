import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('node:fs/promises', async (importOriginal) => (await import('./test-locked-fs.js')).lockedFsPromises(await importOriginal()));

const { locked } = await import('./test-locked-fs.js');
const { indexProject } = await import('./index-project.js');
const { planFileJobs } = await import('./queue/plan-file-jobs.js');
const { openTestIndex } = await import('./test-index.js');

describe('a directory the walk cannot list', () => {
  it('keeps the indexed files below it (unknown, not gone), says why, and removes them once the directory is really gone', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-unreadable-dir-')));
    mkdirSync(path.join(root, 'src/locked'), { recursive: true });
    writeFileSync(path.join(root, 'src/open.ts'), 'export function openFn(): number {\n  return 1;\n}\n');
    writeFileSync(path.join(root, 'src/locked/inner.ts'), 'export function lockedFn(): number {\n  return 2;\n}\n');
    const base = await openTestIndex(root);
    const { store } = base;
    await indexProject(base);
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/locked/inner.ts', 'src/open.ts']);

    locked.add(path.join(root, 'src/locked'));
    try {
      const report = await indexProject(base);
      expect(report).toMatchObject({ deleted: 0, unchanged: 1 });
      expect(report.skipped).toEqual([{ path: 'src/locked', reason: 'unreadable', detail: expect.stringContaining('EACCES') }]);
      expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/locked/inner.ts', 'src/open.ts']);
      expect(await store.findSymbols({ name: 'lockedFn', role: 'definition', limit: 5 })).toHaveLength(1);
      // The team stack's planner does not send it to the workers as a deletion either.
      const plan = await planFileJobs({ root, store, maxFileBytes: base.maxFileBytes, extraIgnores: base.extraIgnores });
      expect(plan.paths).toEqual([]);
    } finally {
      locked.clear();
    }

    rmSync(path.join(root, 'src/locked'), { recursive: true });
    expect(await indexProject(base)).toMatchObject({ deleted: 1 });
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/open.ts']);
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });
});
