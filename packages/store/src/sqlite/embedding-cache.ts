import type Database from 'better-sqlite3';
import { ErrorCode, MonoragError, type IndexIdentity } from '@monorag/shared';
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
  const put = db.prepare('INSERT OR REPLACE INTO embedding_cache (model, content_hash, vector) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const [hash, vector] of entries) put.run(identity.model, hash, encodeVector(vector));
  })();
}
