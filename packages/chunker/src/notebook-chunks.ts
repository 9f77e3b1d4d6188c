import { extname } from 'node:path';
import type { Chunk, CodeSymbol } from '@monorag/shared';
import type { FallbackReason, TokenCounter } from './chunker.js';
import { dropDataChunks } from './drop-data-chunks.js';
import { dropPragmaChunks } from './drop-pragma-chunks.js';
import type { LanguageSpec } from './languages/language-spec.js';
import { TEXT_LANGUAGE_ID, languageById } from './languages/registry.js';
import { languageIdOf } from './languages/resolve-language-id.js';
import { createLineIndex } from './line-index.js';
import { normalisePieces } from './normalise-pieces.js';
import type { Piece } from './piece.js';
import { createPlanContext, type PlanContext } from './plan-context.js';
import type { Notebook, NotebookCell } from './read-notebook.js';
import { toChunk, type FileRows } from './to-chunk.js';
import { windowPieces } from './window-pieces.js';

/** What planning one text gives: pieces over its rows, why it was windowed (or null), and its symbols (rows of the text, 1-based). */
export interface NotebookTextPlan {
  pieces: Piece[];
  fallback: FallbackReason | null;
  symbols?: CodeSymbol[];
}

/** Options of {@link notebookChunks}. */
export interface NotebookChunksOptions {
  /**
   * Plans a text in a language as `createChunker` plans a file of that language (syntax planner with
   * its minified and long-line rules, Markdown sections, line windows). May throw: that text is then
   * chunked by windows and, for code, says `planner-error`.
   */
  plan: (spec: LanguageSpec, ctx: PlanContext, text: string) => NotebookTextPlan;
  /** Largest chunk, header + content, in tokens (the model's limit less its special tokens). */
  maxTokens: number;
  countTokens: TokenCounter;
  /** Characters of each row of the .ipynb file (0-based rows), to measure what lies between two cells. */
  rowLengths: readonly number[];
  /**
   * Whether `text` parses in `spec`'s grammar without a syntax error (true for a language without a
   * grammar). A code cell that does not is planned alone, so its error cannot swallow its neighbours.
   */
  parsesCleanly: (spec: LanguageSpec, text: string) => boolean;
}

/** Chunks and symbols of a notebook, with lines of the .ipynb file. */
export interface NotebookChunks {
  chunks: Chunk[];
  symbols: CodeSymbol[];
  /** Why the code cells were chunked by windows, when all of them were (the reason of the first); else null. */
  fallback: FallbackReason | null;
}

/**
 * Consecutive cells of one type, their sources joined with one blank row between cells (a row of no
 * file row: -1), so that the planners see one text: a run of code cells is planned like one source file,
 * a run of Markdown cells like one Markdown file (a heading in one cell titles the text of the next).
 * A run ends where the next cell's source starts more than `MAX_CELL_GAP_ROWS` rows, or
 * `MAX_CELL_GAP_CHARS` characters, after the last one's.
 */
interface Segment {
  type: NotebookCell['type'];
  /** What the segment is planned as (the kernel's language, a cell magic's, Markdown or text). */
  spec: LanguageSpec;
  /** A cell planned on its own: no other cell joins its segment. */
  alone: boolean;
  lines: string[];
  firstRows: number[];
  lastRows: number[];
}

/**
 * Most rows of the file from one cell's last source row to the next cell's first for the two to be
 * planned as one text, and so to share a chunk: about an editor's screen. Those rows are the next cell's
 * keys and its outputs (Jupyter writes `outputs` before `source`): about 10 rows without outputs; a printed
 * line or an image (one base64 row) adds fewer than 20; a long output (a table's HTML, a log) more. So a
 * chunk's line range never spans a long output, which an editor or `get_file_context` opening the range
 * would show instead of the code.
 */
export const MAX_CELL_GAP_ROWS = 40;

/**
 * Most characters of the file between one cell's last source row and the next cell's first for the two
 * to share a chunk: the rows {@link MAX_CELL_GAP_ROWS} allows at about 100 characters each. An image
 * output is one row of base64 (often 100 KB and more), which the row count alone would let through.
 */
export const MAX_CELL_GAP_CHARS = 4000;

/** Characters of the rows strictly between `from` and `to` (0-based rows of the file). */
function charsBetween(rowLengths: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let row = from + 1; row < to && total <= MAX_CELL_GAP_CHARS; row++) total += rowLengths[row] ?? 0;
  return total;
}

/** Kernel language names that are no language id, alias, extension or interpreter of the registry. */
const KERNEL_ALIASES: Readonly<Record<string, string>> = { ipython: 'python', ipython3: 'python' };

/**
 * The spec code cells are planned with: the registry's language for the kernel's name (`python`,
 * `python3`, `r`, `typescript`, `c++`, ...) when it is chunked by syntax or by windows, else `text`.
 */
function kernelSpec(language: string): LanguageSpec {
  const id = languageIdOf(KERNEL_ALIASES[language] ?? language);
  const spec = languageById(id ?? TEXT_LANGUAGE_ID);
  return spec.strategy === 'syntax' || spec.strategy === 'window' ? spec : languageById(TEXT_LANGUAGE_ID);
}

/**
 * How a cell is planned: Markdown cells as Markdown, raw cells as text; a code cell in the kernel's
 * language, or, under a cell magic naming a language (`%%bash`, `%%html`, `%%javascript`), in that one.
 * A code cell stands alone when it opens with a cell magic (its body is not the kernel's language, or
 * its first row is not) or does not parse by itself: Jupyter compiles each cell alone, so an unclosed
 * bracket or a shell line in one cell must not hide the definitions of the next.
 */
function cellPlan(cell: NotebookCell, kernel: LanguageSpec, parsesCleanly: NotebookChunksOptions['parsesCleanly']): { spec: LanguageSpec; alone: boolean } {
  if (cell.type !== 'code') return { spec: languageById(cell.type === 'markdown' ? 'markdown' : TEXT_LANGUAGE_ID), alone: false };
  const magic = CELL_MAGIC.exec(cell.lines[0] ?? '');
  if (magic) return { spec: magicSpec(magic[1] ?? '', (magic[2] ?? '').trim().split(/\s+/), kernel), alone: true };
  return { spec: kernel, alone: !parsesCleanly(kernel, cell.lines.join('\n')) };
}

/** A cell magic's first row (`%%bash`, `%%writefile src/app.py`): the magic's name and its arguments. */
const CELL_MAGIC = /^%%([A-Za-z_][\w-]*)(.*)$/;

/** IPython's cell magics whose body is the kernel's own language. */
const KERNEL_BODY_MAGICS: ReadonlySet<string> = new Set(['time', 'timeit', 'capture', 'prun', 'debug']);

/**
 * The spec a cell magic's body is planned with: the kernel's for `%%time`, `%%capture` and the like;
 * the language the magic names (`%%bash`, `%%html`, `%%javascript`, `%%ruby`), its interpreter's
 * (`%%script node`) or its file's extension (`%%writefile src/app.py`); text for any other.
 */
function magicSpec(name: string, args: readonly string[], kernel: LanguageSpec): LanguageSpec {
  if (KERNEL_BODY_MAGICS.has(name)) return kernel;
  const target = args.filter((arg) => arg !== '' && !arg.startsWith('-'));
  const named =
    name === 'script' ? target[0] : name === 'writefile' || name === 'file' ? extname(target.at(-1) ?? '').slice(1) : name;
  const id = named ? languageIdOf(named) : undefined;
  return id === undefined ? languageById(TEXT_LANGUAGE_ID) : kernelSpec(id);
}

/** The segments of a notebook's cells in order; cells without source lines are left out. */
function segmentsOf(cells: readonly NotebookCell[], options: NotebookChunksOptions, kernel: LanguageSpec): Segment[] {
  const { rowLengths, parsesCleanly } = options;
  const segments: Segment[] = [];
  let current = null as Segment | null;
  for (const cell of cells) {
    if (cell.lines.length === 0) continue;
    const { spec, alone } = cellPlan(cell, kernel, parsesCleanly);
    const from = current?.lastRows.at(-1) ?? 0;
    const to = cell.firstRows[0] ?? 0;
    const joins =
      current !== null && !current.alone && !alone && current.type === cell.type && current.spec.id === spec.id &&
      to - from <= MAX_CELL_GAP_ROWS && charsBetween(rowLengths, from, to) <= MAX_CELL_GAP_CHARS;
    if (joins && current) {
      current.lines.push('');
      current.firstRows.push(-1);
      current.lastRows.push(-1);
    } else {
      current = { type: cell.type, spec, alone, lines: [], firstRows: [], lastRows: [] };
      segments.push(current);
    }
    for (let i = 0; i < cell.lines.length; i++) {
      current.lines.push(cell.lines[i] ?? '');
      current.firstRows.push(cell.firstRows[i] ?? 0);
      current.lastRows.push(cell.lastRows[i] ?? 0);
    }
  }
  return segments;
}

/** File rows of a segment's rows; a separator row (never a piece's first or last row once normalised) takes its neighbour's. */
function fileRowsOf(segment: Segment): FileRows {
  const { firstRows, lastRows } = segment;
  return {
    first: (row) => {
      for (let at = row; at < firstRows.length; at++) if ((firstRows[at] ?? -1) >= 0) return firstRows[at] as number;
      return Math.max(0, lastRows.findLast((value) => value >= 0) ?? 0);
    },
    last: (row) => {
      for (let at = row; at >= 0; at--) if ((lastRows[at] ?? -1) >= 0) return lastRows[at] as number;
      return Math.max(0, firstRows.find((value) => value >= 0) ?? 0);
    },
  };
}

/**
 * Chunks a Jupyter notebook by its cells' decoded sources, never by its JSON: each run of consecutive
 * code cells is planned as one source file of the kernel's language (`kernelSpec`; Jupyter compiles each
 * cell alone, so no definition spans cells, and planning the run at once lets one-line cells share a chunk
 * up to the budget instead of each making a chunk that is almost all header), each run of Markdown cells
 * as Markdown sections, each run of raw cells by line windows; a long output ends a run (see
 * `MAX_CELL_GAP_ROWS`, `MAX_CELL_GAP_CHARS`), and a code cell that does not parse alone or opens with a
 * cell magic is a run of its own (`cellPlan`). Outputs, attachments and metadata are not indexed.
 *
 * A chunk's `content` is the decoded source it covers (cells of a run joined by a blank line), and its
 * `startLine..endLine` (1-based inclusive) are the lines of the .ipynb file from the JSON string holding
 * its first source line to the one holding its last. When a cell's source is one JSON string (or the
 * notebook is written on one line), several chunks can share those lines; two chunks with the same id
 * (same lines, header and content) are kept once. Symbols (definitions, references) carry .ipynb lines
 * the same way. Chunks are in file order; their language is `language`.
 * @param language the notebook's own language id (as stored in chunks)
 * @throws only what `options.plan` throws outside a segment's planning (nothing on content)
 */
export function notebookChunks(path: string, language: string, notebook: Notebook, options: NotebookChunksOptions): NotebookChunks {
  const { plan, maxTokens, countTokens } = options;
  const code = kernelSpec(notebook.language);
  const chunks: Chunk[] = [];
  const symbols: CodeSymbol[] = [];
  const codeFallbacks: (FallbackReason | null)[] = [];
  for (const segment of segmentsOf(notebook.cells, options, code)) {
    const text = segment.lines.join('\n');
    const lines = createLineIndex(text, countTokens);
    const ctx = createPlanContext(path, lines, maxTokens, countTokens);
    let planned: NotebookTextPlan;
    try {
      planned = plan(segment.spec, ctx, text);
    } catch {
      // Never throw on content: the segment is chunked by windows instead, and (for code) says so.
      planned = { pieces: windowPieces(ctx, 0, lines.lines.length - 1), fallback: 'planner-error' };
    }
    if (segment.type === 'code' && segment.spec === code) codeFallbacks.push(planned.fallback);
    const fileRows = fileRowsOf(segment);
    for (const piece of normalisePieces(planned.pieces, lines)) chunks.push(toChunk(path, language, lines, piece, fileRows));
    for (const symbol of planned.symbols ?? []) {
      symbols.push({ ...symbol, startLine: fileRows.first(symbol.startLine - 1) + 1, endLine: fileRows.last(symbol.endLine - 1) + 1 });
    }
  }
  const seen = new Set<string>();
  const unique = chunks.filter((chunk) => !seen.has(chunk.id) && seen.add(chunk.id));
  const allWindowed = codeFallbacks.length > 0 && codeFallbacks.every((reason) => reason !== null);
  return { chunks: dropPragmaChunks(dropDataChunks(unique)), symbols, fallback: allWindowed ? codeFallbacks[0] ?? null : null };
}
