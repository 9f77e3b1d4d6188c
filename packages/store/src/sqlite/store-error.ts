import { ErrorCode, MonoragError, isMonoragError } from '@monorag/shared';

/**
 * Runs `fn`; a MonoragError passes through unchanged, any other error (SQLITE_BUSY, disk full, a
 * corrupt file) becomes `STORE_FAILED` naming the file and the action, with the original as `cause`.
 */
export function guardStore<T>(file: string, action: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isMonoragError(error)) throw error;
    throw new MonoragError(
      ErrorCode.STORE_FAILED,
      `The index ${file} could not ${action}: ${(error as Error).message}.`,
      { cause: error },
    );
  }
}
