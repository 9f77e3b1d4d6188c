import type { ScoredChunk } from '@monorag/shared';
import { TEST_FACTOR } from './ranking-options.js';
import { rescore } from './rescore.js';
import { isTestPath } from './test-paths.js';

/**
 * Multiplies the fused score of every chunk from a test file ({@link isTestPath}) by
 * {@link TEST_FACTOR} and re-sorts, ties in the incoming order. Call it only for queries that do not
 * ask about tests; it never removes a result.
 */
export function applyTestPrior(hits: readonly ScoredChunk[]): ScoredChunk[] {
  return rescore(hits, (hit) => (isTestPath(hit.chunk.path) ? hit.score * TEST_FACTOR : hit.score));
}
