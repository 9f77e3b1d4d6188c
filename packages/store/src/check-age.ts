import { ErrorCode, MonoragError } from '@monorag/shared';

/**
 * Checks the `olderThanMs` argument of `pruneEmbeddingCache` (milliseconds, 0 or more, finite).
 * @throws MonoragError `INVALID_ARGUMENT` naming the argument and its value.
 */
export function checkAge(olderThanMs: number): void {
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `pruneEmbeddingCache: olderThanMs must be a finite number of milliseconds >= 0, got ${olderThanMs}.`);
  }
}
