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
 * @throws MonoragError `INDEX_NOT_FOUND` when `create` is false and the file does not exist; the
 *   SqliteError `SQLITE_BUSY` when another connection kept the file locked for `busyTimeoutMs`.
 */
export function openDatabase({ file, create, busyTimeoutMs }: OpenDatabaseOptions): Database.Database {
  if (!create && !existsSync(file)) throw indexNotFound(file);
  const db = new Database(file, { fileMustExist: !create });
  try {
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    switchToWal(db, busyTimeoutMs);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    sqliteVec.load(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** First and longest pause between attempts of {@link switchToWal}, in milliseconds. */
const RETRY_PAUSE_MS = { first: 5, max: 50 };

/**
 * Sets `journal_mode = WAL`, retrying for up to `busyTimeoutMs` while it fails with SQLITE_BUSY.
 * On a file still in rollback mode (a new index) the switch reads page 1 and then upgrades to a
 * write; when another connection holds the write lock meanwhile (a second process creating the
 * same new index), SQLite returns SQLITE_BUSY at once without calling the busy handler, since a
 * reader waiting on a writer could deadlock. Retrying the whole statement starts with no lock held,
 * so it waits like any other. Pauses block the thread, as SQLite's own busy handler does.
 */
function switchToWal(db: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  let pause = RETRY_PAUSE_MS.first;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() + pause > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
      pause = Math.min(pause * 2, RETRY_PAUSE_MS.max);
    }
  }
}
