// Public surface of @monorag/chunker: named exports only.
export type { Chunker, ChunkerOptions, TokenCounter } from './chunker.js';
