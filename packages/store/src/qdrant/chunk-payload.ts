import type { Chunk, CodeSymbol, FileRecord, SymbolHit } from '@monorag/shared';
import { chunkSparseVector } from './sparse-bm25.js';
import { DOC_FIELD, PATH_PREFIXES_FIELD, pathPrefixes } from './qdrant-filter.js';
import { pointId } from './point-id.js';

/** Name of the dense vector of chunk points (cosine). */
export const DENSE_VECTOR = 'dense';

/** Name of the sparse BM25 vector of chunk points (`modifier: idf`). */
export const SPARSE_VECTOR = 'bm25';

/** A point as sent to Qdrant's upsert. */
export interface QdrantPoint {
  id: string;
  vector: Record<string, number[] | { indices: number[]; values: number[] }>;
  payload: Record<string, unknown>;
}

/**
 * The point of a chunk: id from the chunk id, the dense and `bm25` vectors, and a payload with the
 * whole chunk under `chunk` plus the indexed fields `doc`, `path`, `path_prefixes`, `language`, `kind`
 * and `symbols` (the symbol name and its scopes).
 */
export function chunkPoint(chunk: Chunk, vector: Float32Array): QdrantPoint {
  return {
    id: pointId(`chunk\0${chunk.id}`),
    vector: { [DENSE_VECTOR]: Array.from(vector), [SPARSE_VECTOR]: chunkSparseVector(chunk) },
    payload: {
      [DOC_FIELD]: 'chunk',
      path: chunk.path,
      [PATH_PREFIXES_FIELD]: pathPrefixes(chunk.path),
      language: chunk.language,
      kind: chunk.kind,
      symbols: [chunk.symbol, ...chunk.scopes].filter((s): s is string => typeof s === 'string' && s !== ''),
      chunk,
    },
  };
}

/** The vector-less manifest point of a file: `{doc: 'file', path, file}`. */
export function filePoint(file: FileRecord): QdrantPoint {
  return { id: filePointId(file.path), vector: {}, payload: { [DOC_FIELD]: 'file', path: file.path, file } };
}

/** Point id of the manifest entry of `path`. */
export function filePointId(path: string): string {
  return pointId(`file\0${path}`);
}

/** The vector-less point of a metadata value: `{doc: 'meta', key, value}`. */
export function metaPoint(key: string, value: unknown): QdrantPoint {
  return { id: metaPointId(key), vector: {}, payload: { [DOC_FIELD]: 'meta', key, value } };
}

/** Point id of the metadata `key`. */
export function metaPointId(key: string): string {
  return pointId(`meta\0${key}`);
}

/** Point id of a cached embedding (cache collection) of a chunk content hash. */
export function cachePointId(contentHash: string): string {
  return pointId(`cache\0${contentHash}`);
}

/** The chunk stored in a point's payload. */
export function payloadChunk(payload: Record<string, unknown> | null | undefined): Chunk {
  return (payload?.chunk ?? {}) as Chunk;
}

/**
 * The vector-less point of symbol row `index` of a file: `{doc: 'symbol', path, path_prefixes, name,
 * role, symbol}` (the row with its path under `symbol`).
 */
export function symbolPoint(path: string, symbol: CodeSymbol, index: number): QdrantPoint {
  const hit: SymbolHit = { path, ...symbol };
  return {
    id: pointId(`symbol\0${path}\0${index}\0${JSON.stringify(symbol)}`),
    vector: {},
    payload: { [DOC_FIELD]: 'symbol', path, [PATH_PREFIXES_FIELD]: pathPrefixes(path), name: symbol.name, role: symbol.role, symbol: hit },
  };
}
