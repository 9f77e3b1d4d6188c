import { describe, expect, it } from 'vitest';
import type { ChunkStore } from '@monorag/store';
import { readIndexFreshness } from './index-freshness.js';

/** The three reads readIndexFreshness makes, from fixed metadata. */
function storeWith(meta: Record<string, string>, stats = { files: 3, chunks: 7 }): ChunkStore {
  return {
    getMeta: async (key: string) => meta[key],
    stats: async () => stats,
  } as unknown as ChunkStore;
}

const EMPTY = { files: 0, chunks: 0 };

describe('readIndexFreshness', () => {
  it('names each reason once: HEAD moved, changed paths waiting, a run in progress', async () => {
    const freshness = await readIndexFreshness(storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaaaaaaaaaaaaaa' }), {
      headCommit: 'cccccccccccccccc', pendingChanges: 2, indexing: true,
    });
    expect(freshness).toMatchObject({ stale: true, files: 3, chunks: 7, indexedCommit: 'aaaaaaaaaaaaaaaa', pendingChanges: 2, indexing: true });
    expect(freshness.warning).toBe(
      'Results may be out of date: HEAD is cccccccccccc but the index reflects aaaaaaaaaaaa; 2 changed path(s) are waiting to be indexed; an index update is in progress.',
    );
  });

  it('an index never built says so alone: its HEAD and changed paths would only restate it', async () => {
    const freshness = await readIndexFreshness(storeWith({}, EMPTY), { headCommit: 'cccccccccccccccc', pendingChanges: 2 });
    expect(freshness.warning).toBe('Results may be out of date: the index has not been built yet.');
    const building = await readIndexFreshness(storeWith({}, EMPTY), { headCommit: 'cccccccccccccccc', pendingChanges: 2, indexing: true });
    expect(building.warning).toBe('Results may be out of date: the index has not been built yet; an index update is in progress.');
  });

  it('files without a completed run: the first run stopped part way, and saying "not built yet" beside its counts would contradict them', async () => {
    const freshness = await readIndexFreshness(storeWith({}, { files: 40, chunks: 310 }), { headCommit: 'cccccccccccccccc', pendingChanges: 2 });
    expect(freshness).toMatchObject({ stale: true, indexedAt: null, files: 40, chunks: 310 });
    expect(freshness.warning).toBe(
      'Results may be out of date: the first index run has not completed: 40 file(s) are indexed so far and the rest are not ' +
        '(`monorag index` completes it, re-using what is there).',
    );
  });

  it('tells queued changes from work-tree changes nothing has queued; both count as pending', async () => {
    const freshness = await readIndexFreshness(storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaa' }), {
      headCommit: 'aaaa', pendingChanges: 1, unqueuedChanges: 2,
    });
    expect(freshness).toMatchObject({ stale: true, pendingChanges: 3, unqueuedChanges: 2, queue: null, indexing: false });
    expect(freshness.warning).toBe(
      'Results may be out of date: 1 changed path(s) are waiting to be indexed; 2 changed file(s) in the work tree are not queued for indexing ' +
        '(a git hook queues them once committed, `monorag index` at once).',
    );
  });

  it('says whether the git hooks will queue unqueued changes, when the caller knows if they are installed', async () => {
    const store = storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaa' });
    expect((await readIndexFreshness(store, { headCommit: 'aaaa', unqueuedChanges: 1, hooksInstalled: true })).warning).toBe(
      'Results may be out of date: 1 changed file(s) in the work tree are not queued for indexing (the git hooks queue them once committed, `monorag index` at once).',
    );
    expect((await readIndexFreshness(store, { headCommit: 'aaaa', unqueuedChanges: 1, hooksInstalled: false })).warning).toBe(
      'Results may be out of date: 1 changed file(s) in the work tree are not queued for indexing ' +
        '(`monorag index` indexes them now; `monorag hooks install` has git hooks queue them on every commit).',
    );
  });

  it('after HEAD moved with no hook (reset, am --abort), tells to run an index, not to commit (a trial: nothing was left to commit)', async () => {
    const store = storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaa' });
    expect((await readIndexFreshness(store, { headCommit: 'bbbb', unqueuedChanges: 1, hooksInstalled: true })).warning).toBe(
      'Results may be out of date: HEAD is bbbb but the index reflects aaaa; 1 changed file(s) in the work tree are not queued for indexing ' +
        '(HEAD moved by a git operation that fires no hook, such as reset or am --abort: `monorag index` indexes them).',
    );
    // Without the hooks, a plain commit moves HEAD too: the advice to install them stands.
    expect((await readIndexFreshness(store, { headCommit: 'bbbb', unqueuedChanges: 1, hooksInstalled: false })).warning).toContain(
      '(`monorag index` indexes them now; `monorag hooks install` has git hooks queue them on every commit)',
    );
    // File jobs on the team stack's queue, or a run in progress, will catch up too.
    const jobs = { name: 'q', jobs: 2, active: 0, failed: 0, workers: 1, error: null };
    expect((await readIndexFreshness(store, { headCommit: 'bbbb', unqueuedChanges: 1, hooksInstalled: true, queue: jobs })).warning).toContain('(the git hooks queue them once committed');
    expect((await readIndexFreshness(store, { headCommit: 'bbbb', unqueuedChanges: 1, hooksInstalled: true, indexing: true })).warning).toContain('(the git hooks queue them once committed');
    // A hook's run is queued: it will catch up (its run reads what HEAD moved past), so the usual advice.
    expect((await readIndexFreshness(store, { headCommit: 'bbbb', pendingChanges: 1, unqueuedChanges: 1, hooksInstalled: true })).warning).toContain(
      '(the git hooks queue them once committed, `monorag index` at once)',
    );
  });

  it('HEAD moved only to content the index holds is no reason to call it stale', async () => {
    const store = storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaa' });
    expect(await readIndexFreshness(store, { headCommit: 'bbbb', headMoveIndexed: true })).toMatchObject({ stale: false, warning: null, headCommit: 'bbbb', indexedCommit: 'aaaa' });
    expect((await readIndexFreshness(store, { headCommit: 'bbbb' })).warning).toBe('Results may be out of date: HEAD is bbbb but the index reflects aaaa.');
  });

  it('outside git (no HEAD), names `monorag index` alone for work-tree changes: no git hook can queue them', async () => {
    const freshness = await readIndexFreshness(storeWith({ indexedAt: '1796000000000' }), { headCommit: null, unqueuedChanges: 3 });
    expect(freshness).toMatchObject({ stale: true, pendingChanges: 3, unqueuedChanges: 3, indexedCommit: null });
    expect(freshness.warning).toBe('Results may be out of date: 3 changed file(s) in the work tree are not indexed yet (`monorag index` indexes them).');
  });

  it("counts the queue's file jobs as pending and says when no worker is connected to run them", async () => {
    const queue = { name: 'monorag-index-p-1234abcd', jobs: 12, active: 0, failed: 0, workers: 0, error: null };
    const freshness = await readIndexFreshness(storeWith({ indexedAt: '1796000000000', indexedCommit: 'b667aaaaaaaaaaaa' }), {
      headCommit: 'f04aaaaaaaaaaaaa', pendingChanges: 0, queue,
    });
    expect(freshness).toMatchObject({ stale: true, pendingChanges: 12, unqueuedChanges: 0, queue, indexing: false });
    expect(freshness.warning).toBe(
      'Results may be out of date: HEAD is f04aaaaaaaaa but the index reflects b667aaaaaaaa; ' +
        '12 file job(s) queued; no worker is connected to monorag-index-p-1234abcd: start one with `monorag worker`.',
    );
  });

  it('with workers: the jobs being indexed make it an update in progress; failed jobs are named; an unreadable queue is said to be', async () => {
    const store = storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaa' });
    const running = await readIndexFreshness(store, { headCommit: 'aaaa', queue: { name: 'q', jobs: 5, active: 2, failed: 1, workers: 2, error: null } });
    expect(running).toMatchObject({ stale: true, pendingChanges: 5, indexing: true });
    expect(running.warning).toBe(
      'Results may be out of date: 5 file job(s) queued for 2 worker(s) on q (2 being indexed); ' +
        '1 file job(s) failed on q: `monorag jobs` lists them, `monorag jobs --retry` runs them again.',
    );
    const drained = await readIndexFreshness(store, { headCommit: 'aaaa', queue: { name: 'q', jobs: 0, active: 0, failed: 0, workers: 1, error: null } });
    expect(drained).toMatchObject({ stale: false, pendingChanges: 0, warning: null });
    const unreadable = await readIndexFreshness(store, {
      headCommit: 'aaaa', queue: { name: 'q', jobs: 0, active: 0, failed: 0, workers: 0, error: 'Redis did not answer within 2 s' },
    });
    expect(unreadable.warning).toBe('Results may be out of date: the file-job queue q could not be read (Redis did not answer within 2 s), so queued jobs are not counted.');
    // The jobs that build a missing index are named beside that reason.
    const building = await readIndexFreshness(storeWith({}, EMPTY), { queue: { name: 'q', jobs: 2, active: 0, failed: 0, workers: 0, error: null } });
    expect(building.warning).toBe('Results may be out of date: the index has not been built yet; 2 file job(s) queued; no worker is connected to q: start one with `monorag worker`.');
  });

  it('work-tree changes that a file watcher of another process picks up say so, not that a git hook or `monorag index` must run', async () => {
    const freshness = await readIndexFreshness(storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaa' }), {
      headCommit: 'aaaa', unqueuedChanges: 2, watcherPid: 4242,
    });
    expect(freshness).toMatchObject({ stale: true, pendingChanges: 2, unqueuedChanges: 2 });
    expect(freshness.warning).toBe(
      'Results may be out of date: 2 changed file(s) in the work tree are not indexed yet (the file watcher of process 4242 picks them up as it sees them).',
    );
  });

  it('without a probe nothing is known about the tree, and a built index is not called stale', async () => {
    const freshness = await readIndexFreshness(storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaa' }));
    expect(freshness).toMatchObject({ stale: false, warning: null, indexedAt: new Date(1796000000000).toISOString() });
  });
});
