/**
 * Core data shapes shared by every package.
 *
 * Conventions (see DESIGN.md, "Contracts worth fixing early"):
 * - `path` is repository-relative with POSIX separators, never absolute.
 * - `startLine` / `endLine` are 1-based and inclusive.
 */

/**
 * What a chunk represents in its file. `test` is a titled test callback of JavaScript or TypeScript
 * (`it('retries on 503', ...)`, `describe('Pool', ...)`, node:test `t.test(...)`): its symbol is the title.
 */
export type ChunkKind =
  | 'function'
  | 'method'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'module'
  | 'test'
  | 'section'
  | 'window';

/** A contiguous range of one file that is embedded and indexed as one unit. */
export interface Chunk {
  /** Stable id: hex digest of (path, startLine, endLine, contentHash); unchanged when content and position are. */
  id: string;
  /** Repo-relative POSIX path. */
  path: string;
  /** Language id from the chunker's registry, e.g. `typescript`, `python`, `markdown`, `text`. */
  language: string;
  /** First line, 1-based inclusive. */
  startLine: number;
  /** Last line, 1-based inclusive. */
  endLine: number;
  kind: ChunkKind;
  /** Name of the definition this chunk holds (e.g. `parseHeaders`), or the heading of a section; null for windows. */
  symbol: string | null;
  /** Enclosing scopes, outermost first (e.g. `['Client', 'request']`). */
  scopes: string[];
  /** Context header embedded with the content: path, scopes and signature, one line each. */
  header: string;
  /**
   * The chunk's source text, exactly lines startLine..endLine of the normalised file (LF line ends); for a
   * Jupyter notebook (language `jupyter`), the decoded source of the cells those lines of JSON hold (no
   * JSON escapes, no outputs), several chunks possibly sharing a line when a cell's source is one JSON string.
   */
  content: string;
  /** Hex sha256 of `header + '\n' + content`: the embedding-cache key together with the model id. */
  contentHash: string;
}

/** One file as recorded in the manifest. */
export interface FileRecord {
  path: string;
  /** Hex sha256 of the normalised text (UTF-8, LF line ends, no BOM). */
  contentHash: string;
  /** Size of the file on disk in bytes. */
  size: number;
  language: string;
  /** Number of chunks stored for the file. */
  chunkCount: number;
  /**
   * When the indexed text was read, in ms since the Unix epoch (taken just before the read): a save
   * after it (the file's mtime later) is not in the index yet. Raised without a re-index when a later
   * run reads the file again and finds it unchanged.
   */
  indexedAt: number;
  /**
   * Why the file was chunked by line windows only (the chunker's `FallbackReason`, e.g. `no-grammar`,
   * `minified`, `parse-timeout`); absent when its language's own strategy was used.
   */
  fallback?: string;
  /**
   * Set when the file was moved here from another path with the same content and its chunks kept
   * the vectors embedded there (whose context header named that path) instead of being embedded
   * again; absent when the vectors were computed for this path. Searches use the new path at once.
   */
  embeddedFrom?: string;
  /**
   * Secrets replaced by `[REDACTED:<rule>]` in the indexed text of this file: spans per secretlint
   * rule id (`{ "github": 1, "aws": 2 }`), never the values; absent when none were found.
   */
  secrets?: Record<string, number>;
}

/** A chunk returned by a store query together with its score. */
export interface ScoredChunk {
  chunk: Chunk;
  /** Store-specific score; higher is better. Cosine similarity for dense, negated FTS5 bm25() for lexical. */
  score: number;
}

/** One search result as returned by `monorag search --json` and the MCP `search_code` tool. */
export interface SearchHit {
  path: string;
  startLine: number;
  endLine: number;
  /**
   * The chunk's symbol (see `Chunk.symbol`); for a chunk holding several small definitions side by side,
   * the one the query names when it names one of them (else the first).
   */
  symbol: string | null;
  /**
   * The definitions enclosing the chunk, outermost first (`['Client']` for a method of `Client`,
   * `['Pool', 'closing']` for a test nested in two describes); [] at the top level.
   */
  scopes: string[];
  kind: ChunkKind;
  language: string;
  /** Fused score (in lexical mode the BM25 score), to 6 significant digits; higher is better. Comparable only within one response. */
  score: number;
  /**
   * Bounded excerpt of the chunk content (about `search.snippetChars` characters), starting at startLine: its
   * first lines, and, when the line holding most of the query's words lies past them, that line after a `…`
   * line (a `…` line marks lines left out).
   */
  snippet: string;
  /**
   * Other places holding exactly the same text, ranked below this hit and so not results of their own
   * (a README copied into the docs, a vendored copy): path and 1-based inclusive lines, at most 5.
   * Absent when there are none.
   */
  alsoAt?: Array<{ path: string; startLine: number; endLine: number }>;
}

/**
 * The identity of an index: vectors of different identities never meet.
 * A store opened with a different identity than the one it holds throws `INDEX_IDENTITY_MISMATCH`.
 */
export interface IndexIdentity {
  /** Embedding model id as reported by the embedder's `/info`. */
  model: string;
  /** Embedding dimension. */
  dim: number;
  /** Chunker version string, bumped whenever chunk boundaries or headers can change. */
  chunkerVersion: string;
}

/** Whether a symbol row is where a name is defined or where it is used. */
export type SymbolRole = 'definition' | 'reference';

/** One row of the symbol table of a file: a definition, or a reference (call site, import, export). */
export interface CodeSymbol {
  /** The identifier, e.g. `parseHeaders` (for `a.b.parseHeaders(...)` the last part). */
  name: string;
  /**
   * For a definition, its kind: `function`, `method`, `class`, `interface`, `type`, `enum`, `module`, `test` (a
   * JavaScript or TypeScript test callback, named by its title: `retries on 503`), or for a module- or
   * class-level binding `constant` (declared constant by the language, e.g. `const`, `static final`,
   * `#define`, or named UPPER_CASE) or `variable` (any other module-level binding: `let`, `var`, Go `var`,
   * a Python lower-case assignment); class bodies hold only class-level constants.
   * For a reference: `call` (call site, `new X()`), `import` or `export`.
   */
  kind: string;
  role: SymbolRole;
  /** First line, 1-based inclusive: the definition (with its body), or the reference itself. */
  startLine: number;
  /** Last line, 1-based inclusive. */
  endLine: number;
  /**
   * For a definition, its enclosing scopes joined by `.` (e.g. `Client` for a method, `Outer.Inner` for a
   * method of a nested class), or, inside a test, by ` > ` (`Pool > close()` for a test in
   * `describe('close()', ...)` in `describe('Pool', ...)`: titles hold spaces and dots), or null at top level.
   * For a reference, the function, method or test that contains it (qualified the same way), or null at top level.
   */
  enclosing: string | null;
}

/** A symbol row with the file it is in, as `monorag symbols` / `monorag refs --json` print it. */
export interface SymbolHit extends CodeSymbol {
  /** Repo-relative POSIX path. */
  path: string;
}
