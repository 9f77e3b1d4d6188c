import type { ScoredChunk, SearchHit } from '@monorag/shared';
import type { RankingStage } from './retriever.js';
import { rangeKey } from './range-key.js';

/** Where one result stood in each stage of the query path: 1-based rank, or null when the stage's list lacks it. */
export type StageRanks = Partial<Record<RankingStage, number | null>>;

/**
 * For each result, its 1-based rank in every traced stage's list (see `RankingTrace`), matched by
 * chunk range (path, startLine, endLine). In hybrid mode the `dense` and `bm25` lists are complete
 * rankings of the candidates, so a rank there is the rank among the candidates; a stage that was not
 * traced (e.g. `symbol` for a query without identifiers) is absent.
 * @returns one entry per result, in result order
 */
export function stageRanks(stages: readonly (readonly [RankingStage, readonly ScoredChunk[]])[], results: readonly SearchHit[]): StageRanks[] {
  const positions = stages.map(([stage, list]) => {
    const at = new Map<string, number>();
    list.forEach((hit, i) => {
      const key = rangeKey(hit);
      if (!at.has(key)) at.set(key, i + 1);
    });
    return [stage, at] as const;
  });
  return results.map((hit) => {
    const key = rangeKey({ chunk: hit });
    return Object.fromEntries(positions.map(([stage, at]) => [stage, at.get(key) ?? null])) as StageRanks;
  });
}
