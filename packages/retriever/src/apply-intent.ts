import type { ScoredChunk } from '@monorag/shared';
import type { QueryIntent } from './analyse-query.js';
import { INTENT_FACTORS, isReferenceChunk } from './ranking-options.js';
import { rescore } from './rescore.js';

/**
 * Multiplies each fused score by the factor for the query's intent and the chunk's kind (prose,
 * which includes type declarations, or code; {@link isReferenceChunk}, {@link INTENT_FACTORS}) and re-sorts, ties in the incoming order. This is a
 * static, query-dependent prior on the document type, as in field/type boosting of classic search
 * engines; it never removes a result.
 */
export function applyIntent(hits: readonly ScoredChunk[], intent: QueryIntent): ScoredChunk[] {
  const factors = INTENT_FACTORS[intent];
  return rescore(hits, (hit) => hit.score * (isReferenceChunk(hit.chunk) ? factors.prose : factors.code));
}
