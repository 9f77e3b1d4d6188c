import { findLanguage } from './languages/registry.js';
/** One cell of a Jupyter notebook as the chunker reads it: its decoded source and where each line is in the file. */
export interface NotebookCell {
  /** `code`, `markdown` or `raw`; a cell of any other type is read as `raw`. */
  type: 'code' | 'markdown' | 'raw';
  /**
   * The decoded source (the JSON strings of `source` joined) split at `\n`, without line ends (a `\r`
   * before a `\n` is dropped too). A final `\n` starts no line of its own; an empty source has no lines.
   */
  lines: string[];
  /** For each of `lines`, the 0-based row of the .ipynb file holding its first character (or its line end, for an empty line). */
  firstRows: number[];
  /** For each of `lines`, the 0-based row of the .ipynb file holding its last character or its line end; >= its `firstRows` entry. */
  lastRows: number[];
}

/** The parts of a nbformat 4 notebook the chunker indexes: the kernel's language and the cells' sources. Outputs, attachments and metadata are not read. */
export interface Notebook {
  /**
   * The kernel's language as the notebook names it, lower case and trimmed: `metadata.kernelspec.language`,
   * else `metadata.language_info.name`, else `python` (Jupyter's default kernel).
   */
  language: string;
  cells: NotebookCell[];
}

/**
 * Why a `.ipynb` file is not read as a notebook: `invalid-notebook` (not JSON, or JSON that is not a
 * notebook: no object with a `cells` array, a cell that is no object, a `source` that is neither a
 * string nor an array of strings), `notebook-version` (an `nbformat` other than 4, e.g. 3 with its
 * `worksheets`).
 */
export type NotebookProblem = 'invalid-notebook' | 'notebook-version';

/** Whether the chunker reads the file at `path` as a Jupyter notebook (its language's strategy is `notebook`: `.ipynb`, any case). */
export function isNotebookPath(path: string): boolean {
  return findLanguage(path, '').strategy === 'notebook';
}

/** A JSON string of a cell's `source` found in the file: its decoded text and the 0-based row it is on. */
interface SourcePart {
  text: string;
  row: number;
}

/** A container open during the scan: an object (with the key whose value is being read) or an array (with the index of the value being read). */
interface Frame {
  array: boolean;
  key: string | null;
  index: number;
  expectKey: boolean;
}

/** Index of the `"` that closes the JSON string opening at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/**
 * The JSON strings of every cell's `source` (the string itself, or the strings of the array) with their
 * rows, by cell index. One pass over `text`, which must be valid JSON (`JSON.parse` checked it), with an
 * explicit stack (no recursion, so deep nesting in outputs or metadata costs no stack) that descends
 * only to `cells[i].source`; a JSON string holds no raw line break, so rows change only between tokens.
 * A second `source` key in a cell replaces the first, as in `JSON.parse`.
 */
function scanSources(text: string): SourcePart[][] {
  const parts: SourcePart[][] = [];
  const stack: Frame[] = [];
  let row = 0;
  /** Which cell's source a string value at the top of `stack` belongs to, or -1. */
  const sourceCell = (): number => {
    const [root, cells, cell, source] = stack;
    if (root?.key !== 'cells' || cells?.array !== true || cell?.array !== false || cell.key !== 'source') return -1;
    if (stack.length === 3) return cells.index;
    return stack.length === 4 && source?.array === true ? cells.index : -1;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (code === 10) row++;
    else if (code === 34) {
      const end = closingQuote(text, i);
      if (end === -1) break;
      if (top && !top.array && top.expectKey) {
        top.key = JSON.parse(text.slice(i, end + 1)) as string;
        top.expectKey = false;
        if (stack.length === 3 && top.key === 'source' && sourceCell() >= 0) parts[sourceCell()] = [];
      } else {
        const cell = sourceCell();
        if (cell >= 0) (parts[cell] ??= []).push({ text: JSON.parse(text.slice(i, end + 1)) as string, row });
      }
      i = end;
    } else if (code === 123 || code === 91) stack.push({ array: code === 91, key: null, index: 0, expectKey: code === 123 });
    else if (code === 125 || code === 93) stack.pop();
    else if (code === 44 && top) {
      if (top.array) top.index++;
      else top.expectKey = true;
    }
  }
  return parts;
}

/** Splits the joined parts of one source into lines with the rows each line starts and ends on (see `NotebookCell`). */
function sourceLines(parts: readonly SourcePart[]): Pick<NotebookCell, 'lines' | 'firstRows' | 'lastRows'> {
  const lines: string[] = [];
  const firstRows: number[] = [];
  const lastRows: number[] = [];
  let current = '';
  let first = -1;
  let last = -1;
  for (const { text, row } of parts) {
    let from = 0;
    while (from <= text.length) {
      const newline = text.indexOf('\n', from);
      const end = newline === -1 ? text.length : newline;
      if (end > from || newline !== -1) {
        if (first === -1) first = row;
        last = row;
        current += text.slice(from, end);
      }
      if (newline === -1) break;
      lines.push(current.endsWith('\r') ? current.slice(0, -1) : current);
      firstRows.push(first);
      lastRows.push(last);
      current = '';
      first = -1;
      from = newline + 1;
    }
  }
  if (current !== '') {
    lines.push(current.endsWith('\r') ? current.slice(0, -1) : current);
    firstRows.push(first);
    lastRows.push(last);
  }
  return { lines, firstRows, lastRows };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The kernel language of a notebook's metadata (see `Notebook.language`). */
function kernelLanguage(metadata: unknown): string {
  if (!isObject(metadata)) return 'python';
  const spec = metadata.kernelspec;
  const info = metadata.language_info;
  const named = isObject(spec) && typeof spec.language === 'string' && spec.language.trim() !== '' ? spec.language
    : isObject(info) && typeof info.name === 'string' && info.name.trim() !== '' ? info.name
    : 'python';
  return named.trim().toLowerCase();
}

/**
 * Reads a Jupyter notebook (nbformat 4, as Jupyter writes it with `indent=1`, or any other layout of the
 * same JSON, minified included): the kernel language and each cell's source, decoded, with the
 * 0-based rows of `text` that each source line occupies. Never throws.
 * @param text the .ipynb file, normalised (LF line ends, no BOM)
 * @returns the notebook, or the `NotebookProblem` that makes `text` no nbformat 4 notebook
 */
export function readNotebook(text: string): Notebook | NotebookProblem {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'invalid-notebook';
  }
  if (!isObject(json)) return 'invalid-notebook';
  if (json.nbformat !== 4) return typeof json.nbformat === 'number' ? 'notebook-version' : 'invalid-notebook';
  const cells = json.cells;
  if (!Array.isArray(cells)) return 'invalid-notebook';
  const sources: string[] = [];
  for (const cell of cells) {
    if (!isObject(cell)) return 'invalid-notebook';
    const source = cell.source ?? '';
    if (typeof source === 'string') sources.push(source);
    else if (Array.isArray(source) && source.every((part) => typeof part === 'string')) sources.push(source.join(''));
    else return 'invalid-notebook';
  }
  const parts = scanSources(text);
  const read: NotebookCell[] = [];
  for (const [index, cell] of (cells as Record<string, unknown>[]).entries()) {
    const found = parts[index] ?? [];
    // The scan and JSON.parse read the same text; should they ever disagree, the file is not read as a notebook.
    if (found.map((part) => part.text).join('') !== sources[index]) return 'invalid-notebook';
    const type = cell.cell_type === 'code' || cell.cell_type === 'markdown' ? cell.cell_type : 'raw';
    read.push({ type, ...sourceLines(found) });
  }
  return { language: kernelLanguage(json.metadata), cells: read };
}
