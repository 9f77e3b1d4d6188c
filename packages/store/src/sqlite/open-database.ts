import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { indexNotFound } from './identity.js';

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** Path of the SQLite file. */
  file: string;
  /** When false, a missing file is `INDEX_NOT_FOUND` instead of being created. */
  create: boolean;
  /** Milliseconds a statement waits for another connection's lock before SQLITE_BUSY. */
  busyTimeoutMs: number;
}

/**
 * Opens a connection configured for one writer (the indexer) and any number of readers (the MCP
 * server) on the same file: WAL journal (readers never block the writer and see the last committed
 * state), `synchronous = NORMAL` (durable at each WAL checkpoint, never corrupt; the SQLite docs'
 * recommended setting for WAL), a busy timeout, foreign keys on, and sqlite-vec loaded.
 * @throws MonoragError `INDEX_NOT_FOUND` when `create` is false and the file does not exist.
 */
export function openDatabase({ file, create, busyTimeoutMs }: OpenDatabaseOptions): Database.Database {
  if (!create && !existsSync(file)) throw indexNotFound(file);
  const db = new Database(file, { fileMustExist: !create });
  try {
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    sqliteVec.load(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
