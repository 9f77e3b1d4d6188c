import { ErrorCode, MonoragError } from '@monorag/shared';

/**
 * Throws `RUN_INTERRUPTED` when `signal` has been aborted. Index runs call it only between two files
 * and between two embedding slices, never inside a store transaction or an embedder request, so an
 * interrupted run leaves every file fully old or fully new and loses at most the file being chunked.
 * @throws MonoragError `RUN_INTERRUPTED`
 */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new MonoragError(ErrorCode.RUN_INTERRUPTED, 'The index run was interrupted; what it wrote stays, and the next run goes on from there.');
  }
}

/** Whether `error` is the {@link throwIfInterrupted} error. */
export function isRunInterrupted(error: unknown): boolean {
  return error instanceof MonoragError && error.code === ErrorCode.RUN_INTERRUPTED;
}
