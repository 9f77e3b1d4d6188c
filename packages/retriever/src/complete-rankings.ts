import type { ScoredChunk } from '@monorag/shared';
import { rangeKey } from './range-key.js';

/** How deep each retriever's ranking is read to place every fused candidate, in chunks. */
export const COMPLETION_DEPTH = 1000;

/**
 * Turns deep rankings (each retriever's top `depth`, default {@link COMPLETION_DEPTH}, best first) into
 * rankings of the same candidate set: the union of every list's top `pool`. Each output list holds the
 * candidates in the order its retriever ranks them. A candidate a truncated list (one that returned
 * `depth` hits) did not reach comes last (in the order of first appearance), since that retriever
 * ranks it below everything it returned. A list that returned fewer than `depth` hits returned every
 * chunk it matches (BM25: every chunk holding a query term), so the candidates it lacks stay out of
 * it: unmatched, they are unranked there, as a run that did not retrieve a document gives it nothing
 * in the fusion; ranking them after its hits would hand them that list's credit in another list's
 * order (a query with no BM25 match at all would count the dense ranking twice).
 * Reciprocal rank fusion is defined over rankings of the same documents
 * (Cormack, Clarke and Büttcher 2009 fused full TREC runs); fusing truncated pools scores a chunk one
 * retriever missed from its pool as if that retriever ranked it nowhere, so a chunk one list ranks
 * first loses to chunks both lists rank moderately. Lists are not re-scored: scores stay those of the
 * retriever, ranks are what fusion reads.
 */
export function completeRankings(deepLists: readonly (readonly ScoredChunk[])[], pool: number, depth = COMPLETION_DEPTH): ScoredChunk[][] {
  const candidates = new Map<string, ScoredChunk>();
  for (const list of deepLists) {
    for (const hit of list.slice(0, pool)) {
      const key = rangeKey(hit);
      if (!candidates.has(key)) candidates.set(key, hit);
    }
  }
  return deepLists.map((list) => {
    const seen = new Set<string>();
    const out: ScoredChunk[] = [];
    for (const hit of list) {
      const key = rangeKey(hit);
      if (candidates.has(key) && !seen.has(key)) {
        seen.add(key);
        out.push(hit);
      }
    }
    if (list.length >= depth) for (const [key, hit] of candidates) if (!seen.has(key)) out.push(hit);
    return out;
  });
}
