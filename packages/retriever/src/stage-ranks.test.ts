import type { Chunk, ScoredChunk, SearchHit } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { stageRanks } from './stage-ranks.js';

const scored = (path: string, startLine: number, endLine: number): ScoredChunk => ({ chunk: { path, startLine, endLine } as Chunk, score: 1 });
const result = (path: string, startLine: number, endLine: number): SearchHit =>
  ({ path, startLine, endLine, symbol: null, scopes: [], kind: 'function', language: 'typescript', score: 1, snippet: '' });

describe('stageRanks', () => {
  it("gives each result's 1-based rank per stage, matched by path and line range, null when absent", () => {
    const a = scored('a.ts', 1, 5);
    const b = scored('b.ts', 1, 5);
    const sameFileOtherRange = scored('a.ts', 6, 9);
    const ranks = stageRanks(
      [
        ['dense', [b, a]],
        ['bm25', [sameFileOtherRange, a, a]],
        ['rrf', [a, b]],
      ],
      [result('a.ts', 1, 5), result('b.ts', 1, 5)],
    );
    expect(ranks).toEqual([
      { dense: 2, bm25: 2, rrf: 1 },
      { dense: 1, bm25: null, rrf: 2 },
    ]);
  });
});
