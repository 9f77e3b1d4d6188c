import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { ErrorCode, MonoragError, isMonoragError, type IndexIdentity } from '@monorag/shared';
import { readIdentity } from './identity.js';

/**
 * The identity recorded in the SQLite index `file`, read through a short read-only connection;
 * undefined when the file does not exist or holds no identity. Lets the CLI compare identities
 * (and decide on `--rebuild`) before opening the store.
 * @throws MonoragError `STORE_FAILED` when the file exists but cannot be read as an index.
 */
export function readStoredIdentity(file: string): IndexIdentity | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return readIdentity(db);
    } finally {
      db.close();
    }
  } catch (error) {
    if (isMonoragError(error)) throw error;
    throw new MonoragError(ErrorCode.STORE_FAILED, `Cannot read the index ${file}: ${(error as Error).message}.`, {
      cause: error,
    });
  }
}
