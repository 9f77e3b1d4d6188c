import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { ErrorCode, MonoragError } from '@monorag/shared';

/**
 * The metadata values recorded under `keys` in the SQLite index `file`, read through a short
 * read-only connection (no migration, no write); keys without a value are absent from the map, and
 * the map is empty when the file does not exist or has no meta table yet. Lets the CLI look at an
 * index it is about to replace (`index --rebuild`) without opening it as a store.
 * @throws MonoragError `STORE_FAILED` when the file exists but cannot be read as an index.
 */
export function readStoredMeta(file: string, keys: readonly string[]): Map<string, string> {
  if (!existsSync(file) || keys.length === 0) return new Map();
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const hasMeta = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'").get();
      if (!hasMeta) return new Map();
      const rows = db.prepare(`SELECT key, value FROM meta WHERE key IN (${keys.map(() => '?').join(', ')})`).all(...keys) as {
        key: string;
        value: string;
      }[];
      return new Map(rows.map((row) => [row.key, row.value]));
    } finally {
      db.close();
    }
  } catch (error) {
    throw new MonoragError(ErrorCode.STORE_FAILED, `Cannot read the index ${file}: ${(error as Error).message}.`, { cause: error });
  }
}
