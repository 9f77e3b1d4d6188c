import type { Chunk } from '@monorag/shared';

/** Counts tokens of the embedding model for a text (an estimate is fine). */
export type TokenCounter = (text: string) => number;

/** Options of `createChunker`. */
export interface ChunkerOptions {
  /** Largest chunk (header + content) in embedding-model tokens. Default 256 (all-MiniLM-L6-v2's max_seq_length). */
  maxTokens?: number;
  /** Token counter; default `estimateTokens`, a conservative word-piece estimate. Called once per line and per header. */
  countTokens?: TokenCounter;
  /** Longest a single file may take to parse, in milliseconds, before it falls back to line windows. Default 1500. */
  parseTimeoutMs?: number;
}

/** Splits files into chunks. Pure: no I/O after creation. */
export interface Chunker {
  /** Version string; part of the index identity. Bump when boundaries or headers change. */
  readonly version: string;
  /** Language id for a path (by extension, then shebang in `text`); `text` for unknown. */
  languageOf(path: string, text: string): string;
  /**
   * Chunks a normalised file (LF line ends, no BOM). Every non-blank line lies in some chunk;
   * ranges are 1-based inclusive and within the file. Never throws on bad syntax: falls back to windows.
   */
  chunk(path: string, text: string): Chunk[];
}
