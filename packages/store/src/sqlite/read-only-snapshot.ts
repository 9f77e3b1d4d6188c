import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A private copy of an index file, made because SQLite cannot open the original in WAL mode. */
export interface IndexSnapshot {
  /** Path of the copy (in a new directory under the OS temp dir). */
  file: string;
  /** Deletes the copy and its directory; safe to call twice. */
  dispose(): void;
}

/**
 * Whether `error` is SQLite failing to open an index for want of write access: `SQLITE_CANTOPEN`
 * (WAL mode must create `<file>-shm` beside the index even to read it) or `SQLITE_READONLY*`.
 * Only meaningful together with {@link isWritableDirectory} on the index's directory being false.
 */
export function isNeedsWriteAccessError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY'));
}

/** Whether this process may create files in `dir` (false on a read-only mount, an immutable or a foreign directory). */
export function isWritableDirectory(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copies the index `file` and its `-wal` (committed writes not yet checkpointed into the file), when
 * present, into a new private temp directory, so that a read-only index (a read-only mount, a
 * shared prebuilt index) can be searched: SQLite in WAL mode needs to create `-shm` beside the file
 * to read it, and better-sqlite3 offers neither `immutable=1` URIs nor a no-lock VFS. The copy is
 * the index as of this moment; writes made to the original later are not seen. Costs one copy of
 * the file (disk and time in proportion to its size in bytes).
 * @throws the copy's file-system error (e.g. ENOSPC) when the temp directory cannot hold it.
 */
export function snapshotIndex(file: string): IndexSnapshot {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'monorag-index-'));
  const copy = path.join(dir, path.basename(file));
  try {
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { file: copy, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
