import type { ScoredChunk } from '@monorag/shared';
import { rangeKey } from './range-key.js';

/**
 * The RRF constant k = 60, from Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion outperforms
 * Condorcet and individual Rank Learning Methods", SIGIR 2009.
 */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: score(d) = Σ_lists 1 / (k + rank_list(d)), ranks 1-based. Chunks are
 * identified by (path, startLine, endLine), so the same range from two lists counts once per list.
 * @returns fused chunks, best first; ties keep the order of first appearance.
 */
export function reciprocalRankFusion(lists: readonly (readonly ScoredChunk[])[], k = RRF_K): ScoredChunk[] {
  const fused = new Map<string, ScoredChunk>();
  for (const list of lists) {
    const seen = new Set<string>();
    list.forEach((hit, index) => {
      const key = rangeKey(hit);
      if (seen.has(key)) return;
      seen.add(key);
      const contribution = 1 / (k + index + 1);
      const prev = fused.get(key);
      if (prev) prev.score += contribution;
      else fused.set(key, { chunk: hit.chunk, score: contribution });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
