import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { ErrorCode, MonoragError, type IndexIdentity } from '@monorag/shared';
import type { CachePruneResult } from '../chunk-store.js';
import { decodeVector, encodeVector } from './vector-codec.js';

/** Cached vectors of `model` for the given content hashes; absent hashes are absent from the map. */
export function getCachedRows(db: Database.Database, model: string, contentHashes: string[]): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (contentHashes.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT content_hash, vector FROM embedding_cache
       WHERE model = ? AND content_hash IN (SELECT value FROM json_each(?))`,
    )
    .all(model, JSON.stringify(contentHashes)) as { content_hash: string; vector: Buffer }[];
  for (const row of rows) out.set(row.content_hash, decodeVector(row.vector));
  return out;
}

/**
 * Upserts vectors of `identity.model` in one transaction.
 * @throws MonoragError `INVALID_ARGUMENT` when a vector's length is not `identity.dim` (nothing is written).
 */
export function putCachedRows(db: Database.Database, identity: IndexIdentity, entries: Map<string, Float32Array>): void {
  for (const [hash, vector] of entries) {
    if (vector.length !== identity.dim) {
      throw new MonoragError(
        ErrorCode.INVALID_ARGUMENT,
        `Cannot cache the embedding of ${hash}: ${vector.length} dimensions but the index expects ${identity.dim} (model "${identity.model}").`,
      );
    }
  }
  const put = db.prepare('INSERT OR REPLACE INTO embedding_cache (model, content_hash, vector, used_at) VALUES (?, ?, ?, ?)');
  const now = Date.now();
  db.transaction(() => {
    for (const [hash, vector] of entries) put.run(identity.model, hash, encodeVector(vector), now);
  })();
}

/**
 * Marks the cache entries of the chunks of `path` as used now, just before those chunks are replaced
 * or deleted: an entry's age for {@link pruneCacheRows} counts from when the index last referenced it,
 * so a branch left yesterday keeps its vectors for the whole grace period. Runs inside the caller's transaction.
 */
export function touchCacheOfPath(db: Database.Database, path: string, now = Date.now()): void {
  db.prepare(`
    UPDATE embedding_cache SET used_at = ?
    WHERE content_hash IN (SELECT content_hash FROM chunks WHERE path = ?)`).run(now, path);
}

/**
 * Garbage-collects the embedding cache: deletes every entry of another model than `model` (this
 * index can never use it) and every entry no chunk references whose `used_at` is before
 * `now - olderThanMs`. Entries a chunk references are always kept. One transaction.
 */
export function pruneCacheRows(db: Database.Database, model: string, olderThanMs: number, now = Date.now()): CachePruneResult {
  return db.transaction(() => {
    const otherModels = db.prepare('DELETE FROM embedding_cache WHERE model <> ?').run(model).changes;
    const stale = db
      .prepare(`
        DELETE FROM embedding_cache
        WHERE model = ? AND used_at < ?
          AND NOT EXISTS (SELECT 1 FROM chunks WHERE chunks.content_hash = embedding_cache.content_hash)`)
      .run(model, now - olderThanMs).changes;
    const kept = db.prepare('SELECT count(*) FROM embedding_cache').pluck().get() as number;
    return { removed: otherModels + stale, kept };
  })();
}

/**
 * Copies the cache entries of `model` from another index file into this one (entries already here
 * are kept), so a rebuild (a new chunker version, `index --rebuild`) embeds only chunk texts that are
 * new. A missing or unreadable `from` file, or one without a cache table, copies nothing.
 * @returns the number of entries copied.
 */
export function importCacheRows(db: Database.Database, model: string, from: string): number {
  if (!existsSync(from)) return 0;
  db.prepare('ATTACH DATABASE ? AS previous').run(from);
  try {
    const hasCache = db.prepare("SELECT 1 FROM previous.sqlite_schema WHERE type = 'table' AND name = 'embedding_cache'").get();
    if (!hasCache) return 0;
    return db
      .prepare('INSERT OR IGNORE INTO main.embedding_cache (model, content_hash, vector, used_at) SELECT model, content_hash, vector, ? FROM previous.embedding_cache WHERE model = ?')
      .run(Date.now(), model).changes;
  } finally {
    db.prepare('DETACH DATABASE previous').run();
  }
}
