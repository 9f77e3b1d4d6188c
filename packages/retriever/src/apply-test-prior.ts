import type { ScoredChunk } from '@monorag/shared';
import { TEST_FACTOR } from './ranking-options.js';
import { rescore } from './rescore.js';
import { isTestPath } from './test-paths.js';

/**
 * Multiplies the fused score of every chunk whose file `weighs` picks (by repo-relative path) by
 * {@link TEST_FACTOR} and re-sorts, ties in the incoming order; it never removes a result. A chunk
 * `exempt` says is left as it is. The common step of the test-file and side-file priors.
 */
export function applyPathPrior(hits: readonly ScoredChunk[], weighs: (path: string) => boolean, exempt: (hit: ScoredChunk) => boolean = () => false): ScoredChunk[] {
  return rescore(hits, (hit) => (weighs(hit.chunk.path) && !exempt(hit) ? hit.score * TEST_FACTOR : hit.score));
}

/**
 * Multiplies the fused score of every chunk from a test file ({@link isTestPath}) by
 * {@link TEST_FACTOR} and re-sorts, ties in the incoming order. Call it only for queries that do not
 * ask about tests; it never removes a result. A chunk `exempt` says is left as it is: the definition
 * of a name the query asks for (a fixture, a helper, a class that only a test file defines) is what
 * the query wants wherever it lives, and the prior exists for queries that name nothing.
 */
export function applyTestPrior(hits: readonly ScoredChunk[], exempt: (hit: ScoredChunk) => boolean = () => false): ScoredChunk[] {
  return applyPathPrior(hits, isTestPath, exempt);
}
