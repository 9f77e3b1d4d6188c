import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, MonoragError, isMonoragError } from '@monorag/shared';

/** SQLite result codes (better-sqlite3's `error.code`) that mean the file itself is damaged or not a database. */
const DAMAGED_CODES = /^SQLITE_(CORRUPT|NOTADB)/;

/** Whether `error` says the index file is damaged (corrupt pages, a truncated file, not a database at all). */
export function isDamagedStoreError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DAMAGED_CODES.test(code);
}

/** Whether `error` is SQLite refusing to write (`SQLITE_READONLY*`: the file, its `-wal` / `-shm` companions or their directory is not writable). */
export function isReadOnlyStoreError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_READONLY');
}

/**
 * Why SQLite could not open `file` (`SQLITE_CANTOPEN`, "unable to open database file"), judged from the
 * file system: its directory missing, on a read-only file system, or not writable by this user (SQLite
 * creates `-wal` and `-shm` beside the index), or the file not readable and writable; undefined when none applies.
 */
export function cantOpenReason(file: string): string | undefined {
  const dir = path.dirname(file);
  if (!existsSync(dir)) return `its directory ${dir} does not exist`;
  const denied = (target: string, mode: number): string | undefined => {
    try {
      accessSync(target, mode);
      return undefined;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code ?? 'EACCES';
    }
  };
  const dirCode = denied(dir, constants.W_OK);
  if (dirCode === 'EROFS') return `its directory ${dir} is on a read-only file system`;
  if (dirCode !== undefined) return `its directory ${dir} is not writable by this user (${dirCode}), and SQLite writes ${path.basename(file)}-wal and -shm there`;
  if (existsSync(file) && denied(file, constants.R_OK | constants.W_OK) !== undefined) return 'the file is not readable and writable by this user';
  return undefined;
}

/**
 * Runs `fn`; a MonoragError passes through unchanged, any other error (SQLITE_BUSY, disk full, a
 * corrupt file) becomes `STORE_FAILED` naming the file and the action, with the original as `cause`.
 * A damaged file ({@link isDamagedStoreError}) gets a message that says how to recover: the index is
 * derived data, so `monorag index --rebuild` builds it anew from the project. A read-only file
 * ({@link isReadOnlyStoreError}) gets one that names the three files SQLite writes (the index, its
 * `-wal` and `-shm`) and their directory: after a run on a read-only index the companions are left
 * read-only too, so making the index file alone writable is not enough.
 */
export function guardStore<T>(file: string, action: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isMonoragError(error)) throw error;
    const message = (error as Error).message;
    throw new MonoragError(
      ErrorCode.STORE_FAILED,
      isDamagedStoreError(error)
        ? `The index ${file} is damaged and could not ${action} (${message}). It holds nothing that cannot be rebuilt: run \`monorag index --rebuild\` on its project (or delete the file and run \`monorag index\`).`
        : isReadOnlyStoreError(error)
          ? `The index ${file} could not ${action}: it is read-only (${message}). SQLite writes the index file, ${path.basename(file)}-wal and ${path.basename(file)}-shm beside it, and needs their directory writable: make all of them writable by this user (e.g. \`chmod u+w ${path.dirname(file)} ${file}*\`).`
          : cantOpen(error, file, action, message) ?? `The index ${file} could not ${action}: ${message}.`,
      { cause: error },
    );
  }
}

/** The message for `SQLITE_CANTOPEN` with its reason ({@link cantOpenReason}) and the two ways out, else undefined. */
function cantOpen(error: unknown, file: string, action: string, message: string): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== 'SQLITE_CANTOPEN') return undefined;
  const reason = cantOpenReason(file);
  if (reason === undefined) return undefined;
  return `The index ${file} could not ${action} (${message}): ${reason}. Make it writable, or keep the index in a writable directory with --data-dir (or MONORAG_DATA_DIR).`;
}
