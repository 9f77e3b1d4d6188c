import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('node:fs/promises', async (importOriginal) => (await import('./test-locked-fs.js')).lockedFsPromises(await importOriginal()));

const { locked } = await import('./test-locked-fs.js');
const { indexProject } = await import('./index-project.js');
const { after, openTestIndex, pendingChanges } = await import('./test-index.js');

describe('a file the index holds that a run cannot read', () => {
  it('keeps its indexed text, and is pending only until a run has looked at it, then again after a later change (trial: stale for good)', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-unreadable-file-')));
    mkdirSync(path.join(root, 'src'));
    const file = path.join(root, 'src/a.py');
    writeFileSync(file, 'def locked_fn():\n    return 1\n');
    const base = await openTestIndex(root);
    const { store } = base;
    await indexProject(base);
    expect(await pendingChanges(base)).toBe(0);

    await after(Date.now() + 20); // file times are coarse (a kernel tick): a change must fall clearly after the run read the file
    locked.add(file);
    chmodSync(file, 0o000); // a status change: pending until a run looks
    expect(await pendingChanges(base)).toBe(1);
    const report = await indexProject(base);
    expect(report.skipped).toEqual([{ path: 'src/a.py', reason: 'unreadable', detail: 'EACCES' }]);
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/a.py']);
    expect(await store.findSymbols({ name: 'locked_fn', role: 'definition', limit: 5 })).toHaveLength(1);
    expect(await pendingChanges(base)).toBe(0);

    await after(Date.now() + 20); // file times are coarse (a kernel tick): a change must fall clearly after the run read the file
    chmodSync(file, 0o644);
    locked.delete(file);
    writeFileSync(file, 'def open_fn():\n    return 2\n');
    expect(await pendingChanges(base)).toBe(1);
    await indexProject(base);
    expect(await pendingChanges(base)).toBe(0);
    expect(await store.findSymbols({ name: 'open_fn', role: 'definition', limit: 5 })).toHaveLength(1);
    await store.close();
  });
});
