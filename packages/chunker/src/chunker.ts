import type { Chunk, CodeSymbol } from '@monorag/shared';

/** Counts the embedding model's tokens of a text, without special tokens (an estimate is fine); additive over lines. */
export type TokenCounter = (text: string) => number;

/** Options of `createChunker`. */
export interface ChunkerOptions {
  /** Largest chunk (header + content) in embedding-model tokens. Default 256 (all-MiniLM-L6-v2's max_seq_length). */
  maxTokens?: number;
  /**
   * Token counter; default `estimateTokens`, a conservative word-piece estimate; `createWordPieceCounter`
   * gives exact BERT counts. Must add up over lines (it is called once per line and per header) and
   * leave out the model's special tokens (see `specialTokens`).
   */
  countTokens?: TokenCounter;
  /**
   * Names the token counter in `Chunker.version`, so an index chunked with one counter is never
   * updated with another (chunk boundaries depend on it). Default `estimate`; give e.g.
   * `wordpiece-30522` for `createWordPieceCounter` over a 30,522-entry vocabulary.
   */
  counterId?: string;
  /** Tokens the model adds to every input, reserved out of `maxTokens`. Default 2 (`[CLS]` and `[SEP]` of BERT models). */
  specialTokens?: number;
  /** Longest a single file may take to parse, in milliseconds, before it falls back to line windows. Default 1500. */
  parseTimeoutMs?: number;
}

/**
 * Why a file of a code language was chunked by line windows instead of its syntax tree:
 * `no-grammar` (the language has no tree-sitter grammar here, e.g. SQL or unknown text),
 * `grammar-unavailable` (its grammar failed to load), `minified` (an average line over 500 characters, or
 * lines over 2000 making up half or more of its non-blank lines: minified or generated), `parse-timeout` (parsing took longer than `parseTimeoutMs`),
 * `planner-error` (the syntax planner failed on this tree).
 * A `.ipynb` file that is no notebook the chunker reads is chunked by windows over its JSON, because of
 * `invalid-notebook` (not JSON, or JSON without the shape of a notebook: see `readNotebook`) or
 * `notebook-version` (an `nbformat` other than 4). A notebook whose code cells were all chunked by
 * windows gives their reason (`no-grammar` for a kernel language without a grammar, e.g. R or Julia).
 */
export type FallbackReason =
  | 'no-grammar'
  | 'grammar-unavailable'
  | 'minified'
  | 'parse-timeout'
  | 'planner-error'
  | 'invalid-notebook'
  | 'notebook-version';

/** What the chunker made of one file. */
export interface FileAnalysis {
  /** Language id (see `languageOf`). */
  language: string;
  chunks: Chunk[];
  /** Why the file was chunked by windows only (for a notebook: why its code cells were), or null when its language's own strategy was used. */
  fallback: FallbackReason | null;
  /** Definitions and references from the syntax tree (see `extractSymbols`), lines of the file; [] without a tree. */
  symbols: CodeSymbol[];
}

/** Splits files into chunks. Pure: no I/O after creation. */
export interface Chunker {
  /** `<CHUNKER_VERSION>+<counterId>`; part of the index identity. Bump CHUNKER_VERSION when boundaries or headers change. */
  readonly version: string;
  /** Language id for a path (by extension, then shebang in `text`); `text` for unknown. */
  languageOf(path: string, text: string): string;
  /**
   * Chunks a normalised file (LF line ends, no BOM). Every non-blank line lies in some chunk;
   * ranges are 1-based inclusive and within the file. Never throws on bad syntax: falls back to windows.
   * Notebooks (`.ipynb`) are the exception (see `notebookChunks`): their chunks hold the decoded source
   * of cells, not the file's lines, and their ranges are the file lines of that source, so the JSON
   * around it (outputs, metadata) lies in no chunk.
   */
  chunk(path: string, text: string): Chunk[];
  /** Like `chunk`, with the language and the fallback reason. Never throws. */
  analyse(path: string, text: string): FileAnalysis;
  /** Grammar files that failed to load, with the error message; their languages fall back to windows. */
  readonly unavailableGrammars: ReadonlyMap<string, string>;
}
