// Public surface of @monorag/store: named exports only.
export type { ChunkStore, QueryOptions, SearchFilter, StoreStats } from './chunk-store.js';
