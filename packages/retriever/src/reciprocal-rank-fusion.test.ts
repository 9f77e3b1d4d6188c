import type { Chunk, ScoredChunk } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.js';

function hit(path: string, startLine: number, score = 1): ScoredChunk {
  const chunk = { path, startLine, endLine: startLine + 1 } as Chunk;
  return { chunk, score };
}

describe('reciprocalRankFusion', () => {
  it('sums 1/(k + rank) over lists, rank 1-based, k = 60', () => {
    const fused = reciprocalRankFusion([
      [hit('a', 1), hit('b', 1)],
      [hit('b', 1), hit('c', 1)],
    ]);
    expect(fused.map((h) => h.chunk.path)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 61, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 12);
  });

  it('counts a duplicate range once per list', () => {
    const fused = reciprocalRankFusion([[hit('a', 1), hit('a', 1)]]);
    expect(fused).toHaveLength(1);
    expect(fused[0]!.score).toBeCloseTo(1 / 61, 12);
  });
});
