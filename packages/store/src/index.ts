// Public surface of @monorag/store: named exports only.
export type { CachePruneResult, ChunkStore, QueryOptions, SearchFilter, StoreStats, SymbolQuery } from './chunk-store.js';
export { codeTerms, MAX_TERM_LENGTH, MIN_TERM_LENGTH, TERM_ANALYZER } from './code-terms.js';
export { queryTerms, QUERY_STOPWORDS } from './query-terms.js';
export { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export { readStoredIdentity } from './sqlite/read-stored-identity.js';
export { readStoredMeta } from './sqlite/read-stored-meta.js';
export { deleteStoreFiles } from './sqlite/delete-store-files.js';
export { replaceStoreFile } from './sqlite/replace-store-file.js';
export { BM25_WEIGHTS } from './sqlite/search-lexical.js';
export { MAX_DENSE_LIMIT } from './sqlite/search-dense.js';
export { deleteQdrantIndex, openQdrantStore, QDRANT_RRF_K, type HybridQueryOptions, type QdrantStore, type QdrantStoreOptions } from './qdrant-store.js';
export { BM25_AVG_TERMS, BM25_B, BM25_K1 } from './qdrant/sparse-bm25.js';
