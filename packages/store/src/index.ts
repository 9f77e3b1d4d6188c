// Public surface of @monorag/store: named exports only.
export type { ChunkStore, QueryOptions, SearchFilter, StoreStats } from './chunk-store.js';
export { codeTerms, MAX_TERM_LENGTH, MIN_TERM_LENGTH } from './code-terms.js';
export { queryTerms, QUERY_STOPWORDS } from './query-terms.js';
