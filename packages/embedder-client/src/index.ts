// Public surface of @monorag/embedder-client: named exports only.
export type { Embedder, EmbedderInfo } from './embedder.js';
