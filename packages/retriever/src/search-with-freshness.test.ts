import { describe, expect, it } from 'vitest';
import type { IndexFreshness } from './index-freshness.js';
import type { SearchResponse } from './retriever.js';
import { searchWithFreshness } from './search-with-freshness.js';

const fresh: IndexFreshness = { indexedAt: null, indexedCommit: null, files: 1, chunks: 1, headCommit: null, pendingChanges: 0, unqueuedChanges: 0, queue: null, indexing: false, stale: false, warning: null };
const running: IndexFreshness = { ...fresh, indexing: true, stale: true, warning: 'Results may be out of date: an index update is in progress.' };

describe('searchWithFreshness', () => {
  it('labels the results with the freshness asked for before the search, not after it', async () => {
    const calls: string[] = [];
    let runEnded = false;
    const response = await searchWithFreshness(
      {
        search: async (): Promise<SearchResponse> => {
          calls.push('search');
          runEnded = true;
          return { results: [], mode: 'lexical', index: fresh, warnings: [] };
        },
      },
      { query: 'walrus' },
      async () => (calls.push('freshness'), runEnded ? fresh : running),
    );
    expect(calls).toEqual(['freshness', 'search']);
    expect(response.index).toEqual(running);
  });

  it("rejects with the search's error when both fail, leaving no unhandled rejection", async () => {
    const failing = { search: async (): Promise<SearchResponse> => Promise.reject(new Error('search failed')) };
    await expect(searchWithFreshness(failing, { query: 'walrus' }, async () => Promise.reject(new Error('freshness failed')))).rejects.toThrow('search failed');
  });
});
