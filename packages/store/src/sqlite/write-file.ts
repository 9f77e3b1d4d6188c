import type Database from 'better-sqlite3';
import { ErrorCode, MonoragError, type Chunk, type CodeSymbol, type FileRecord, type IndexIdentity } from '@monorag/shared';
import { touchCacheOfPath } from './embedding-cache.js';
import { ftsColumns } from './fts-text.js';
import { encodeVector } from './vector-codec.js';

/**
 * Checks a writeFile call before anything is written.
 * @throws MonoragError `INVALID_ARGUMENT` naming the file: a chunk of another path, a vector count
 *   unlike the chunk count, or a vector whose length is not `identity.dim`.
 */
export function validateWrite(identity: IndexIdentity, file: FileRecord, chunks: Chunk[], vectors: Float32Array[]): void {
  const fail = (why: string): never => {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Cannot store ${file.path}: ${why}.`);
  };
  if (vectors.length !== chunks.length) fail(`${chunks.length} chunks but ${vectors.length} vectors`);
  chunks.forEach((chunk, i) => {
    if (chunk.path !== file.path) fail(`chunk ${i} (${chunk.id}) belongs to ${chunk.path}`);
  });
  vectors.forEach((vector, i) => {
    if (vector.length !== identity.dim) {
      fail(`vector ${i} has ${vector.length} dimensions but the index expects ${identity.dim} (model "${identity.model}")`);
    }
  });
}

/**
 * Deletes every chunk of `path` with its vector and FTS row, first marking their embedding-cache
 * entries as used now (see `touchCacheOfPath`). Runs inside the caller's transaction.
 * vec0 takes the rowid as a BigInt (sqlite-vec rejects a JS number bound as REAL).
 */
export function deleteChunksOfPath(db: Database.Database, path: string): void {
  touchCacheOfPath(db, path);
  const rowids = db.prepare('SELECT rowid FROM chunks WHERE path = ?').pluck().all(path) as number[];
  const deleteVector = db.prepare('DELETE FROM chunks_vec WHERE rowid = ?');
  const deleteFts = db.prepare('DELETE FROM chunks_fts WHERE rowid = ?');
  for (const rowid of rowids) {
    deleteVector.run(BigInt(rowid));
    deleteFts.run(rowid);
  }
  db.prepare('DELETE FROM chunks WHERE path = ?').run(path);
  db.prepare('DELETE FROM symbols WHERE path = ?').run(path);
}

/**
 * Replaces the chunks and symbols of `file.path` and upserts its manifest row; runs inside the caller's
 * transaction (so a failure half-way rolls everything back). The manifest's `chunk_count` is the
 * number of chunks written, whatever `file.chunkCount` said.
 */
export function writeFileRows(
  db: Database.Database,
  file: FileRecord,
  chunks: Chunk[],
  vectors: Float32Array[],
  symbols: readonly CodeSymbol[] = [],
): void {
  deleteChunksOfPath(db, file.path);
  const insertSymbol = db.prepare(`
    INSERT INTO symbols (path, role, name, kind, start_line, end_line, enclosing)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  for (const symbol of symbols) {
    insertSymbol.run(file.path, symbol.role, symbol.name, symbol.kind, symbol.startLine, symbol.endLine, symbol.enclosing);
  }
  const insertChunk = db.prepare(`
    INSERT INTO chunks (id, path, language, start_line, end_line, kind, symbol, scopes, header, content, content_hash)
    VALUES (@id, @path, @language, @startLine, @endLine, @kind, @symbol, @scopes, @header, @content, @contentHash)`);
  const insertVector = db.prepare('INSERT INTO chunks_vec (rowid, embedding) VALUES (?, ?)');
  const insertFts = db.prepare('INSERT INTO chunks_fts (rowid, symbol, path, body) VALUES (?, ?, ?, ?)');
  chunks.forEach((chunk, i) => {
    const { lastInsertRowid } = insertChunk.run({ ...chunk, scopes: JSON.stringify(chunk.scopes) });
    const rowid = BigInt(lastInsertRowid);
    insertVector.run(rowid, encodeVector(vectors[i] as Float32Array));
    const fts = ftsColumns(chunk);
    insertFts.run(rowid, fts.symbol, fts.path, fts.body);
  });
  db.prepare(`
    INSERT INTO files (path, content_hash, size, language, chunk_count, indexed_at, fallback, embedded_from, secrets) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (path) DO UPDATE SET content_hash = excluded.content_hash, size = excluded.size,
      language = excluded.language, chunk_count = excluded.chunk_count, indexed_at = excluded.indexed_at,
      fallback = excluded.fallback, embedded_from = excluded.embedded_from, secrets = excluded.secrets`).run(
    file.path,
    file.contentHash,
    file.size,
    file.language,
    chunks.length,
    file.indexedAt,
    file.fallback ?? null,
    file.embeddedFrom ?? null,
    file.secrets === undefined ? null : JSON.stringify(file.secrets),
  );
}
