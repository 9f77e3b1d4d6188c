import type { ScoredChunk } from '@monorag/shared';
import { applyPathPrior } from './apply-test-prior.js';
import { sideFileKind, type SideFileKind } from './side-files.js';

/**
 * Multiplies the fused score of every chunk from a side file of one of the `kinds` (benchmarks,
 * release notes: {@link sideFileKind}) by the test-file prior's factor (`TEST_FACTOR`) and re-sorts,
 * ties in the incoming order. Pass only the kinds the query does not ask about (`sideKindsToWeigh`);
 * it never removes a result. A chunk `exempt` says is left as it is (the definition of a name the
 * query asks for).
 */
export function applySideFilePrior(
  hits: readonly ScoredChunk[],
  kinds: ReadonlySet<SideFileKind>,
  exempt: (hit: ScoredChunk) => boolean = () => false,
): ScoredChunk[] {
  return applyPathPrior(
    hits,
    (path) => {
      const kind = sideFileKind(path);
      return kind !== undefined && kinds.has(kind);
    },
    exempt,
  );
}
