import type { ScoredChunk } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { capDemotion } from './cap-demotion.js';

function hit(name: string, score: number): ScoredChunk {
  return { chunk: { path: `${name}.ts`, startLine: 1, endLine: 2 } as ScoredChunk['chunk'], score };
}
const names = (list: readonly ScoredChunk[]) => list.map((h) => h.chunk.path.replace('.ts', ''));

describe('capDemotion', () => {
  const before = ['a', 'b', 'c', 'd', 'e', 'f'].map((n, i) => hit(n, 1 - i / 10));

  it('lifts a chunk the priors sank more than `places` back to its rank plus places, others keeping their order', () => {
    // A prior sank `a` (first before) to the bottom; with places = 2 it may fall to the third place only.
    const after = [hit('b', 0.9), hit('c', 0.8), hit('d', 0.7), hit('e', 0.6), hit('f', 0.5), hit('a', 0.4)];
    const capped = capDemotion(before, after, 2);
    expect(names(capped)).toEqual(['b', 'c', 'a', 'd', 'e', 'f']);
    // Scores stay non-increasing: the lifted chunk takes the score of the one it now precedes.
    expect(capped.map((h) => h.score)).toEqual([0.9, 0.8, 0.7, 0.7, 0.6, 0.5]);
  });

  it('meets every deadline when several chunks sank, in their order before', () => {
    const after = [hit('c', 0.8), hit('d', 0.7), hit('e', 0.6), hit('f', 0.5), hit('a', 0.4), hit('b', 0.3)];
    expect(names(capDemotion(before, after, 1))).toEqual(['c', 'a', 'b', 'd', 'e', 'f']);
    expect(names(capDemotion(before, after, 0))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('leaves a ranking within the cap as it is, and moves chunks up freely', () => {
    const after = [hit('f', 2), hit('a', 0.9), hit('c', 0.8), hit('b', 0.7), hit('d', 0.6), hit('e', 0.5)];
    expect(capDemotion(before, after, 2)).toEqual(after);
    expect(capDemotion(before, after.slice().reverse(), Infinity)).toEqual(after.slice().reverse());
  });
});
