import type { Chunk, ScoredChunk } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { completeRankings } from './complete-rankings.js';

const hit = (path: string, score = 1): ScoredChunk => ({ chunk: { path, startLine: 1, endLine: 2 } as Chunk, score });
const paths = (lists: ScoredChunk[][]): string[][] => lists.map((l) => l.map((h) => h.chunk.path));

describe('completeRankings', () => {
  it('ranks every candidate of either pool in each list, by that list\'s deep order', () => {
    const dense = ['a', 'b', 'c', 'd', 'x'].map((p) => hit(p));
    const bm25 = ['x', 'y', 'e', 'a'].map((p) => hit(p));
    // Pools of 2: candidates a, b (dense) and x, y (BM25); each list read 4 deep, so BM25's 4 hits may be a truncated list.
    expect(paths(completeRankings([dense, bm25], 2, 4))).toEqual([
      ['a', 'b', 'x', 'y'], // y is not in dense's deep list: last
      ['x', 'y', 'a', 'b'], // a at depth 4 in BM25; b beyond its depth: last
    ]);
  });

  it('leaves out of a list the candidates it did not match when it returned fewer hits than its depth', () => {
    const dense = ['a', 'b', 'c'].map((p) => hit(p));
    // BM25 matched two chunks in all (read 1000 deep): b was not matched, so it has no BM25 rank.
    const bm25 = ['x', 'a'].map((p) => hit(p));
    // (Dense, read 1000 deep over a 3-chunk index, returned every chunk there is; x is not among them here, so it stays out too.)
    expect(paths(completeRankings([dense, bm25], 2))).toEqual([
      ['a', 'b'],
      ['x', 'a'],
    ]);
    // A query BM25 matches nowhere gives an empty BM25 list, not a copy of the dense order.
    expect(paths(completeRankings([dense, []], 2))).toEqual([['a', 'b'], []]);
  });

  it('keeps each list as it was when both pools hold the same chunks, and counts a range once', () => {
    const dense = ['a', 'b', 'a'].map((p) => hit(p));
    const bm25 = ['b', 'a'].map((p) => hit(p));
    expect(paths(completeRankings([dense, bm25], 3))).toEqual([['a', 'b'], ['b', 'a']]);
  });
});
