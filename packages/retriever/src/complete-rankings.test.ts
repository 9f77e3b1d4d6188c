import type { Chunk, ScoredChunk } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { completeRankings } from './complete-rankings.js';

const hit = (path: string, score = 1): ScoredChunk => ({ chunk: { path, startLine: 1, endLine: 2 } as Chunk, score });
const paths = (lists: ScoredChunk[][]): string[][] => lists.map((l) => l.map((h) => h.chunk.path));

describe('completeRankings', () => {
  it('ranks every candidate of either pool in each list, by that list\'s deep order', () => {
    const dense = ['a', 'b', 'c', 'd', 'x'].map((p) => hit(p));
    const bm25 = ['x', 'y', 'e', 'a'].map((p) => hit(p));
    // Pools of 2: candidates a, b (dense) and x, y (BM25).
    expect(paths(completeRankings([dense, bm25], 2))).toEqual([
      ['a', 'b', 'x', 'y'], // y is not in dense's deep list: last
      ['x', 'y', 'a', 'b'], // a at depth 4 in BM25; b never returned: last
    ]);
  });

  it('keeps each list as it was when both pools hold the same chunks, and counts a range once', () => {
    const dense = ['a', 'b', 'a'].map((p) => hit(p));
    const bm25 = ['b', 'a'].map((p) => hit(p));
    expect(paths(completeRankings([dense, bm25], 3))).toEqual([['a', 'b'], ['b', 'a']]);
  });
});
