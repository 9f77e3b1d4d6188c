import type Database from 'better-sqlite3';
import { ErrorCode, MonoragError, type Logger } from '@monorag/shared';

/** One schema step; `version` is the `PRAGMA user_version` the file has after `up` ran. */
interface Migration {
  version: number;
  up(db: Database.Database): void;
}

/**
 * The numbered schema steps, oldest first. Never edit a released step; append a new one.
 *
 * Version 1:
 * - `meta(key, value)`: identity (`identity.model`, `identity.dim`, `identity.chunkerVersion`) and
 *   caller metadata such as `indexedCommit`.
 * - `files`: the manifest, one row per indexed path.
 * - `chunks`: integer `rowid` (shared with the vector and FTS tables) and the text `id` of the chunk.
 * - `chunks_fts`: contentless FTS5 table (rowid = chunks.rowid) over pre-analysed code terms in three
 *   columns: `symbol` (symbol + scopes), `path`, `body` (header + content). Terms come from
 *   `codeTerms` joined by spaces; the tokenizer only has to split on spaces, hence
 *   `tokenchars '-_$'` and `remove_diacritics 0`.
 * - `embedding_cache(model, content_hash, vector)`: Float32 little-endian blobs.
 *
 * Version 2 (symbol table):
 * - `files.fallback`: why the file was chunked by line windows only (null when it was not).
 * - `symbols(path, role, name, kind, start_line, end_line, enclosing)`: definitions and references of
 *   each file, replaced with its chunks; indexed by (name, role) for `monorag symbols` / `refs`.
 *
 * Version 3 (embedding-cache garbage collection):
 * - `embedding_cache.used_at`: when the entry was last written or last stopped being referenced by a
 *   chunk (ms since the epoch); rows present before the migration get the migration time.
 * - `chunks_content_hash` index, so "is this cache entry referenced?" is one index probe.
 * - `files.embedded_from`: the earlier path whose vectors a moved file kept (null when embedded here).
 *
 * Version 4 (secret redaction):
 * - `files.secrets`: JSON object of the secrets redacted in the file's indexed text, spans per rule id
 *   (null when none were).
 *
 * The vec0 table `chunks_vec` depends on the dimension, so it is created when the identity is first
 * recorded (see `recordIdentity`), not here.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up(db) {
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE files (
          path TEXT PRIMARY KEY,
          content_hash TEXT NOT NULL,
          size INTEGER NOT NULL,
          language TEXT NOT NULL,
          chunk_count INTEGER NOT NULL,
          indexed_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE chunks (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          path TEXT NOT NULL,
          language TEXT NOT NULL,
          start_line INTEGER NOT NULL,
          end_line INTEGER NOT NULL,
          kind TEXT NOT NULL,
          symbol TEXT,
          scopes TEXT NOT NULL,
          header TEXT NOT NULL,
          content TEXT NOT NULL,
          content_hash TEXT NOT NULL
        );
        CREATE INDEX chunks_path ON chunks (path, start_line);
        CREATE INDEX chunks_language ON chunks (language);
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
          symbol, path, body,
          content = '', contentless_delete = 1,
          tokenize = "unicode61 remove_diacritics 0 tokenchars '-_$'"
        );
        CREATE TABLE embedding_cache (
          model TEXT NOT NULL,
          content_hash TEXT NOT NULL,
          vector BLOB NOT NULL,
          PRIMARY KEY (model, content_hash)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 2,
    up(db) {
      db.exec(`
        ALTER TABLE files ADD COLUMN fallback TEXT;
        CREATE TABLE symbols (
          path TEXT NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('definition', 'reference')),
          name TEXT NOT NULL,
          kind TEXT NOT NULL,
          start_line INTEGER NOT NULL,
          end_line INTEGER NOT NULL,
          enclosing TEXT
        );
        CREATE INDEX symbols_name ON symbols (name, role);
        CREATE INDEX symbols_path ON symbols (path);
      `);
    },
  },
  {
    version: 3,
    up(db) {
      db.exec(`
        ALTER TABLE embedding_cache ADD COLUMN used_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE files ADD COLUMN embedded_from TEXT;
        CREATE INDEX chunks_content_hash ON chunks (content_hash);
      `);
      db.prepare('UPDATE embedding_cache SET used_at = ?').run(Date.now());
    },
  },
  {
    version: 4,
    up(db) {
      db.exec('ALTER TABLE files ADD COLUMN secrets TEXT;');
    },
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings `db` to {@link SCHEMA_VERSION}. Each step runs in its own `BEGIN IMMEDIATE` transaction that
 * re-reads `user_version` first, so two processes opening a new file at once apply each step once.
 * A file already at the current version costs one pragma read.
 * @throws MonoragError `STORE_FAILED` when the file was written by a newer monorag (higher version).
 */
export function migrate(db: Database.Database, file: string, logger?: Logger): void {
  const current = userVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new MonoragError(
      ErrorCode.STORE_FAILED,
      `The index ${file} has schema version ${current}, newer than this monorag supports (${SCHEMA_VERSION}). Upgrade monorag or re-index with \`monorag index --rebuild\`.`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      if (userVersion(db) >= migration.version) return;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
      logger?.debug({ file, version: migration.version }, 'store schema migrated');
    }).immediate();
  }
}

function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}
