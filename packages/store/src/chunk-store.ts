import type { Chunk, CodeSymbol, FileRecord, IndexIdentity, ScoredChunk, SymbolHit, SymbolRole } from '@monorag/shared';

/** Filters applied inside a store query (before the limit). */
export interface SearchFilter {
  /** Only chunks whose path starts with this repo-relative POSIX prefix. */
  pathPrefix?: string;
  /** Only chunks of this language id. */
  language?: string;
}

/** Options of a store query. */
export interface QueryOptions {
  /** Number of results, at most. */
  limit: number;
  filter?: SearchFilter;
}

/** A symbol-table query: rows of one role whose name is exactly `name`. */
export interface SymbolQuery {
  name: string;
  role: SymbolRole;
  /** Rows at most. */
  limit: number;
  /** Only rows whose path starts with this repo-relative POSIX prefix. */
  pathPrefix?: string;
}

/** Counts of what the store holds. */
export interface StoreStats {
  files: number;
  chunks: number;
}

/**
 * The index store of one project and one index identity. Implementations: SQLite (embedded default),
 * Qdrant (team stack). All implementations pass the same contract suite.
 */
export interface ChunkStore {
  /** The identity this store holds. */
  readonly identity: IndexIdentity;
  /** All manifest entries, sorted by path. */
  listFiles(): Promise<FileRecord[]>;
  /** The manifest entry of `path`, if indexed. */
  getFile(path: string): Promise<FileRecord | undefined>;
  /**
   * Replaces every chunk of `file.path` with `chunks` (vectors[i] belongs to chunks[i]), its symbol rows
   * with `symbols` (default none), and writes the manifest entry, atomically: a crash leaves either the
   * old or the new state, never a mix.
   */
  writeFile(file: FileRecord, chunks: Chunk[], vectors: Float32Array[], symbols?: readonly CodeSymbol[]): Promise<void>;
  /** Symbol rows (definitions or references) named exactly `query.name`, ordered by path and line. */
  findSymbols(query: SymbolQuery): Promise<SymbolHit[]>;
  /**
   * Records that the file was read again at `indexedAt` (ms since the Unix epoch, taken before the read)
   * and found to hold the text the index has: raises the manifest entry's `indexedAt` to it, and writes
   * nothing else (chunks, vectors and symbols stay). A no-op for an unknown path, an entry of another
   * `contentHash` (the file was re-indexed meanwhile) or one already stamped at or after `indexedAt`.
   */
  setFileIndexedAt(path: string, contentHash: string, indexedAt: number): Promise<void>;
  /** Removes the file's chunks, symbols and manifest entry; a no-op for an unknown path. */
  deleteFile(path: string): Promise<void>;
  /** Nearest chunks by cosine similarity (score in [-1, 1], higher is better). */
  searchDense(vector: Float32Array, options: QueryOptions): Promise<ScoredChunk[]>;
  /** Best chunks by BM25 over code-aware terms (score = -bm25, higher is better). An empty term set gives []. */
  searchLexical(query: string, options: QueryOptions): Promise<ScoredChunk[]>;
  /** Chunks of one file ordered by startLine. */
  chunksOfFile(path: string): Promise<Chunk[]>;
  /**
   * The dense vector of every chunk of `path`, by chunk id (empty for an unknown path). Lets a moved
   * file keep its vectors without a model call.
   */
  vectorsOfFile(path: string): Promise<Map<string, Float32Array>>;
  /** Cached embeddings by chunk content hash, for this identity's model. Missing hashes are absent from the map. */
  getCachedEmbeddings(contentHashes: string[]): Promise<Map<string, Float32Array>>;
  /** Adds embeddings to the cache (content hash -> vector). */
  putCachedEmbeddings(entries: Map<string, Float32Array>): Promise<void>;
  /**
   * Garbage-collects the embedding cache: removes entries no longer useful to this index that were
   * last used more than `olderThanMs` ago. SQLite: unreferenced by any chunk, with "used" meaning
   * written or last referenced (entries of another model go at once). Qdrant (a cache shared by
   * every project of the model): written or last hit more than `olderThanMs` ago; a chunk keeps its
   * own vector, so this only costs a re-embedding if that text comes back.
   * @throws MonoragError `INVALID_ARGUMENT` when `olderThanMs` is negative or not finite.
   */
  pruneEmbeddingCache(olderThanMs: number): Promise<CachePruneResult>;
  /** Reads a metadata value (e.g. `indexedCommit`, `indexedAt`). */
  getMeta(key: string): Promise<string | undefined>;
  /** Writes a metadata value. */
  setMeta(key: string, value: string): Promise<void>;
  stats(): Promise<StoreStats>;
  close(): Promise<void>;
}

/** What {@link ChunkStore.pruneEmbeddingCache} removed and kept. */
export interface CachePruneResult {
  /** Cache entries deleted. */
  removed: number;
  /** Cache entries left (SQLite: in this index file; Qdrant: in the model's shared cache). */
  kept: number;
}
