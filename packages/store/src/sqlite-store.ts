import path from 'node:path';
import type Database from 'better-sqlite3';
import { ErrorCode, MonoragError, type Chunk, type CodeSymbol, type FileRecord, type IndexIdentity, type Logger } from '@monorag/shared';
import type { ChunkStore, QueryOptions, StoreStats, SymbolQuery } from './chunk-store.js';
import { chunkColumns, rowToChunk, rowToFile, rowToSymbol, type ChunkRow, type FileRow, type SymbolRow } from './sqlite/chunk-row.js';
import { prefixRange } from './sqlite/prefix-range.js';
import { checkAge } from './check-age.js';
import { summariseProblems } from './sqlite/summarise-problems.js';
import { decodeVector } from './sqlite/vector-codec.js';
import { getCachedRows, importCacheRows, pruneCacheRows, putCachedRows } from './sqlite/embedding-cache.js';
import { IDENTITY_KEY_PREFIX, resolveIdentity } from './sqlite/identity.js';
import { ensureFtsAnalyzer } from './sqlite/fts-analyzer.js';
import { migrate } from './sqlite/migrations.js';
import { openDatabase } from './sqlite/open-database.js';
import { isNeedsWriteAccessError, isWritableDirectory, snapshotIndex } from './sqlite/read-only-snapshot.js';
import { MAX_DENSE_LIMIT, searchDenseRows } from './sqlite/search-dense.js';
import { searchLexicalRows } from './sqlite/search-lexical.js';
import { guardStore } from './sqlite/store-error.js';
import { deleteChunksOfPath, validateWrite, writeFileRows } from './sqlite/write-file.js';

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** Path of the SQLite file, e.g. `<project>/.monorag/index.sqlite`; its directory must exist. */
  file: string;
  /**
   * The identity to index with. Given: a new file records it, an existing one must hold the same.
   * Omitted (read-only use such as search): the stored identity is adopted; the file must exist. An
   * index in a directory this process cannot write (a read-only mount) is then read from a private
   * snapshot (a warning is logged; later writes to the index are not seen).
   */
  identity?: IndexIdentity;
  logger?: Logger;
  /** Milliseconds to wait for another connection's write lock; default 5000. */
  busyTimeoutMs?: number;
}

/** The embedded {@link ChunkStore}: one SQLite file with sqlite-vec vectors and an FTS5 index. */
export interface SqliteStore extends ChunkStore {
  /** Path of the SQLite file. */
  readonly file: string;
  /**
   * Copies this model's embedding-cache entries from another index file (e.g. the index a rebuild
   * replaces), keeping entries already present; returns how many were copied (0 for a missing file).
   * @throws MonoragError `STORE_FAILED` naming `from` when it is not a readable SQLite file.
   */
  importEmbeddingCache(from: string): Promise<number>;
  /**
   * SQLite's `PRAGMA quick_check` over the whole file (about 20-40 ms for a 30 MB index, warm): damage
   * in pages no query has read yet (a disk fault, a bad copy) is found before a run reports success.
   * @throws MonoragError `STORE_FAILED` saying the file is damaged and to run `monorag index --rebuild`.
   */
  checkIntegrity(): Promise<void>;
}

/**
 * Opens (creating when `identity` is given) the SQLite index at `file`: applies pending numbered
 * migrations (`PRAGMA user_version`), then resolves the identity. Several processes may open the
 * same file: WAL mode lets readers run while one writer writes; writers wait `busyTimeoutMs`.
 * Every write is one transaction.
 * @throws MonoragError `INDEX_NOT_FOUND` (no `identity` and no file, or a file without identity),
 *   `INDEX_IDENTITY_MISMATCH` (the file holds another identity; the message says how to re-index),
 *   `INVALID_ARGUMENT` (dimension not a positive integer), `STORE_FAILED` (unreadable or newer file).
 */
export async function openSqliteStore({
  file,
  identity: requested,
  logger,
  busyTimeoutMs = 5000,
}: SqliteStoreOptions): Promise<SqliteStore> {
  const { db, dispose } = openConnection(file, requested !== undefined, busyTimeoutMs, logger);
  try {
    const identity = guardStore(file, 'be opened', () => {
      migrate(db, file, logger);
      const resolved = resolveIdentity(db, file, requested, logger);
      if (!db.readonly) ensureFtsAnalyzer(db, file, logger);
      return resolved;
    });
    return createSqliteStore(db, file, identity, dispose);
  } catch (error) {
    db.close();
    dispose();
    throw error;
  }
}

/**
 * Opens `file`; for reading (`create` false) an index whose directory this process cannot write
 * (where SQLite's WAL mode cannot create `-shm`) is opened from a private snapshot instead, with a
 * warning. `dispose` deletes the snapshot (a no-op otherwise).
 */
function openConnection(
  file: string,
  create: boolean,
  busyTimeoutMs: number,
  logger: Logger | undefined,
): { db: Database.Database; dispose: () => void } {
  const open = (at: string) => guardStore(file, 'be opened', () => openDatabase({ file: at, create, busyTimeoutMs }));
  try {
    return { db: open(file), dispose: () => {} };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (create || !isNeedsWriteAccessError(cause) || isWritableDirectory(path.dirname(file))) throw error;
    const snapshot = guardStore(file, 'be copied to read it from a writable place', () => snapshotIndex(file));
    logger?.warn(
      { index: file, snapshot: snapshot.file },
      `The index's directory ${path.dirname(file)} is read-only, so SQLite cannot open the index in place: reading a private copy made now (${snapshot.file}); changes written to the index later are not seen until this process restarts.`,
    );
    try {
      return { db: open(snapshot.file), dispose: snapshot.dispose };
    } catch (snapshotError) {
      snapshot.dispose();
      throw snapshotError;
    }
  }
}

function createSqliteStore(db: Database.Database, file: string, identity: IndexIdentity, dispose: () => void): SqliteStore {
  const guard = <T>(action: string, fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(guardStore(file, action, fn));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const checkLimit = (limit: number, max: number): void => {
    if (!Number.isInteger(limit) || limit < 0 || limit > max) {
      throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `limit must be an integer from 0 to ${max}, got ${limit}.`);
    }
  };

  return {
    file,
    identity,

    listFiles: () =>
      guard('list files', () => (db.prepare('SELECT * FROM files ORDER BY path').all() as FileRow[]).map(rowToFile)),

    getFile: (path) =>
      guard('read the manifest', () => {
        const row = db.prepare('SELECT * FROM files WHERE path = ?').get(path) as FileRow | undefined;
        return row && rowToFile(row);
      }),

    writeFile: (record: FileRecord, chunks: Chunk[], vectors: Float32Array[], symbols?: readonly CodeSymbol[]) =>
      guard(`store ${record.path}`, () => {
        validateWrite(identity, record, chunks, vectors);
        db.transaction(() => writeFileRows(db, record, chunks, vectors, symbols)).immediate();
      }),

    setFileIndexedAt: (path, contentHash, indexedAt) =>
      guard(`record the read time of ${path}`, () => {
        db.prepare('UPDATE files SET indexed_at = ? WHERE path = ? AND content_hash = ? AND indexed_at < ?').run(indexedAt, path, contentHash, indexedAt);
      }),

    findSymbols: ({ name, role, limit, pathPrefix }: SymbolQuery) =>
      guard('read the symbol table', () => {
        checkLimit(limit, Number.MAX_SAFE_INTEGER);
        const range = pathPrefix ? prefixRange(pathPrefix) : undefined;
        const where = range ? ' AND path >= @low AND path < @high' : '';
        const params = range ? { name, role, limit, low: range.low, high: range.high } : { name, role, limit };
        return (
          db
            .prepare(`SELECT * FROM symbols WHERE name = @name AND role = @role${where} ORDER BY path, start_line, end_line LIMIT @limit`)
            .all(params) as SymbolRow[]
        ).map(rowToSymbol);
      }),

    deleteFile: (path) =>
      guard(`delete ${path}`, () => {
        db.transaction(() => {
          deleteChunksOfPath(db, path);
          db.prepare('DELETE FROM files WHERE path = ?').run(path);
        }).immediate();
      }),

    searchDense: (vector: Float32Array, options: QueryOptions) =>
      guard('run a dense search', () => {
        if (vector.length !== identity.dim) {
          throw new MonoragError(
            ErrorCode.INVALID_ARGUMENT,
            `The query vector has ${vector.length} dimensions but the index expects ${identity.dim} (model "${identity.model}").`,
          );
        }
        checkLimit(options.limit, MAX_DENSE_LIMIT);
        return searchDenseRows(db, vector, options);
      }),

    searchLexical: (query: string, options: QueryOptions) =>
      guard('run a lexical search', () => {
        checkLimit(options.limit, Number.MAX_SAFE_INTEGER);
        return searchLexicalRows(db, query, options);
      }),

    chunksOfFile: (path) =>
      guard(`read the chunks of ${path}`, () =>
        (
          db
            .prepare(`SELECT ${chunkColumns('c')} FROM chunks c WHERE c.path = ? ORDER BY c.start_line, c.end_line`)
            .all(path) as ChunkRow[]
        ).map(rowToChunk),
      ),

    vectorsOfFile: (path) =>
      guard(`read the vectors of ${path}`, () => {
        const rows = db
          .prepare('SELECT c.id AS id, v.embedding AS embedding FROM chunks c JOIN chunks_vec v ON v.rowid = c.rowid WHERE c.path = ?')
          .all(path) as { id: string; embedding: Buffer }[];
        return new Map(rows.map((row) => [row.id, decodeVector(row.embedding)]));
      }),

    getCachedEmbeddings: (contentHashes) =>
      guard('read the embedding cache', () => getCachedRows(db, identity.model, contentHashes)),

    putCachedEmbeddings: (entries) =>
      guard('write the embedding cache', () => putCachedRows(db, identity, entries)),

    checkIntegrity: () =>
      guard('pass its integrity check', () => {
        const problems = db.pragma('quick_check', { simple: false }) as { quick_check: string }[];
        const first = problems[0]?.quick_check ?? 'ok';
        if (first !== 'ok') throw Object.assign(new Error(summariseProblems(problems.map((p) => p.quick_check))), { code: 'SQLITE_CORRUPT' });
      }),

    importEmbeddingCache: (from) =>
      guard(`import the embedding cache of ${from}`, () => importCacheRows(db, identity.model, from)),

    pruneEmbeddingCache: (olderThanMs) =>
      guard('prune the embedding cache', () => {
        checkAge(olderThanMs);
        return pruneCacheRows(db, identity.model, olderThanMs);
      }),

    getMeta: (key) =>
      guard('read metadata', () => db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined),

    setMeta: (key, value) =>
      guard('write metadata', () => {
        if (key.startsWith(IDENTITY_KEY_PREFIX)) {
          throw new MonoragError(
            ErrorCode.INVALID_ARGUMENT,
            `Metadata keys starting with "${IDENTITY_KEY_PREFIX}" are reserved for the index identity: ${key}.`,
          );
        }
        db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
      }),

    stats: () =>
      guard('count its contents', (): StoreStats => ({
        files: db.prepare('SELECT count(*) FROM files').pluck().get() as number,
        chunks: db.prepare('SELECT count(*) FROM chunks').pluck().get() as number,
      })),

    close: async () => {
      if (db.open) db.close();
      dispose();
    },
  };
}
