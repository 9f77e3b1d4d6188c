import type { ScoredChunk } from '@monorag/shared';
import { TEST_FACTOR } from './ranking-options.js';
import { isTestPath } from './test-paths.js';

/**
 * Multiplies the fused score of every chunk from a test file ({@link isTestPath}) by
 * {@link TEST_FACTOR} and re-sorts, ties in the incoming order. Call it only for queries that do not
 * ask about tests; it never removes a result.
 */
export function applyTestPrior(hits: readonly ScoredChunk[]): ScoredChunk[] {
  return hits
    .map((hit, index) => ({ hit: isTestPath(hit.chunk.path) ? { chunk: hit.chunk, score: hit.score * TEST_FACTOR } : hit, index }))
    .sort((a, b) => b.hit.score - a.hit.score || a.index - b.index)
    .map(({ hit }) => hit);
}
