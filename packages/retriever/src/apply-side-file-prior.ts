import type { ScoredChunk } from '@monorag/shared';
import { TEST_FACTOR } from './ranking-options.js';
import { rescore } from './rescore.js';
import { sideFileKind, type SideFileKind } from './side-files.js';

/**
 * Multiplies the fused score of every chunk from a side file of one of the `kinds` (benchmarks,
 * release notes: {@link sideFileKind}) by {@link TEST_FACTOR}, the test-file prior's factor, and
 * re-sorts, ties in the incoming order. Pass only the kinds the query does not ask about
 * (`QueryAnalysis.asksForBenchmarks`, `asksForReleaseNotes`); it never removes a result. A chunk
 * `exempt` says is left as it is (the definition of a name the query asks for).
 */
export function applySideFilePrior(
  hits: readonly ScoredChunk[],
  kinds: ReadonlySet<SideFileKind>,
  exempt: (hit: ScoredChunk) => boolean = () => false,
): ScoredChunk[] {
  return rescore(hits, (hit) => {
    const kind = sideFileKind(hit.chunk.path);
    return kind !== undefined && kinds.has(kind) && !exempt(hit) ? hit.score * TEST_FACTOR : hit.score;
  });
}
