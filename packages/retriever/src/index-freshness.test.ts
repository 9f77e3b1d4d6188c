import { describe, expect, it } from 'vitest';
import type { ChunkStore } from '@monorag/store';
import { readIndexFreshness } from './index-freshness.js';

/** The three reads readIndexFreshness makes, from fixed metadata. */
function storeWith(meta: Record<string, string>): ChunkStore {
  return {
    getMeta: async (key: string) => meta[key],
    stats: async () => ({ files: 3, chunks: 7 }),
  } as unknown as ChunkStore;
}

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
    const freshness = await readIndexFreshness(storeWith({}), { headCommit: 'cccccccccccccccc', pendingChanges: 2 });
    expect(freshness.warning).toBe('Results may be out of date: the index has not been built yet.');
    const building = await readIndexFreshness(storeWith({}), { headCommit: 'cccccccccccccccc', pendingChanges: 2, indexing: true });
    expect(building.warning).toBe('Results may be out of date: the index has not been built yet; an index update is in progress.');
  });

  it('without a probe nothing is known about the tree, and a built index is not called stale', async () => {
    const freshness = await readIndexFreshness(storeWith({ indexedAt: '1796000000000', indexedCommit: 'aaaa' }));
    expect(freshness).toMatchObject({ stale: false, warning: null, indexedAt: new Date(1796000000000).toISOString() });
  });
});
