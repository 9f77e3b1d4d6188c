import type { ScoredChunk } from '@monorag/shared';

/**
 * `hits` with each score replaced by `score(hit)`, best first; equal scores keep their incoming order.
 * The common step of the ranking priors (intent, test files, file evidence): a new score, never a
 * removed result.
 */
export function rescore(hits: readonly ScoredChunk[], score: (hit: ScoredChunk) => number): ScoredChunk[] {
  return hits
    .map((hit, index) => ({ hit: { chunk: hit.chunk, score: score(hit) }, index }))
    .sort((a, b) => b.hit.score - a.hit.score || a.index - b.index)
    .map(({ hit }) => hit);
}
