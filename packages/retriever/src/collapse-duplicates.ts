import type { Chunk, ScoredChunk } from '@monorag/shared';

/** Most places listed for one kept hit (`alsoAt`); further copies are left out. */
export const MAX_DUPLICATE_PLACES = 5;

/** A place holding the same text as a kept hit: path and 1-based inclusive lines. */
export interface DuplicatePlace {
  path: string;
  startLine: number;
  endLine: number;
}

/** One kept hit and the places of its copies further down the ranking (at most {@link MAX_DUPLICATE_PLACES}). */
export interface CollapsedHit extends ScoredChunk {
  alsoAt: DuplicatePlace[];
}

/**
 * The first `limit` hits of a ranking with copies collapsed: a chunk whose content is identical
 * (character for character) to a chunk ranked above it is not a result of its own but a place of that
 * hit (`alsoAt`). A repository holds the same text in several files (a README copied into the docs,
 * a vendored copy of a library, generated twins); each copy used a result slot and said nothing new.
 * The best-ranked copy leads (the priors have already weighed path and kind); ranks are the order kept.
 * Reads `ranked` only as far as it needs to fill `limit` hits.
 * @param ranked hits best first.
 * @param limit hits wanted (an integer >= 0).
 */
export function collapseDuplicates(ranked: readonly ScoredChunk[], limit: number): CollapsedHit[] {
  const kept: CollapsedHit[] = [];
  const byContent = new Map<string, CollapsedHit>();
  for (const hit of ranked) {
    const first = byContent.get(hit.chunk.content);
    if (first) {
      if (first.alsoAt.length < MAX_DUPLICATE_PLACES) first.alsoAt.push(placeOf(hit.chunk));
      continue;
    }
    if (kept.length === limit) break;
    const collapsed: CollapsedHit = { ...hit, alsoAt: [] };
    kept.push(collapsed);
    byContent.set(hit.chunk.content, collapsed);
  }
  return kept;
}

function placeOf(chunk: Chunk): DuplicatePlace {
  return { path: chunk.path, startLine: chunk.startLine, endLine: chunk.endLine };
}
