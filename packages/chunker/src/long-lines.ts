import { MAX_PARSED_LINE_CHARS } from './looks-minified.js';
import type { Piece, PieceMeta } from './piece.js';
import { WINDOW_META } from './window-pieces.js';

/** Rows (0-based, ascending) longer than `MAX_PARSED_LINE_CHARS`: the rows the parser never sees. */
export function longRows(rows: readonly string[]): number[] {
  const long: number[] = [];
  for (let row = 0; row < rows.length; row++) if ((rows[row] ?? '').length > MAX_PARSED_LINE_CHARS) long.push(row);
  return long;
}

/**
 * Whether a piece is a long row's own chunk: one row over `MAX_PARSED_LINE_CHARS`, as `carveRows` leaves
 * it. Nothing joins it and it joins nothing (`mergeFragments`): under BERT's word pieces a line of data is
 * a handful of tokens (a word over 100 characters is one `[UNK]`), and code joined to it would be dropped with it
 * as a data chunk (`isDataChunk`).
 */
export function isLongRowPiece(rows: readonly string[], piece: Piece): boolean {
  return piece.start === piece.end && (rows[piece.start] ?? '').length > MAX_PARSED_LINE_CHARS;
}

/**
 * `rows` with each row of `long` emptied, so that the parser reads a file with one data line of
 * 100,000 characters at the cost of its other lines, and every row keeps its number.
 */
export function blankRows(rows: readonly string[], long: readonly number[]): string[] {
  const blanked = [...rows];
  for (const row of long) blanked[row] = '';
  return blanked;
}

/** The meta a long row takes from the piece it lies in, or between two pieces of: a definition's, or a window's at module level. */
function metaFor(piece: Piece): PieceMeta {
  const { whole: _whole, start: _start, end: _end, ...meta } = piece;
  return meta.kind === 'module' || meta.kind === 'window' ? { ...WINDOW_META, scopes: meta.scopes } : meta;
}

/** True when two pieces are parts of one definition (same kind, symbol, scopes and signature). */
function sameDefinition(a: Piece, b: Piece): boolean {
  return a.kind === b.kind && a.symbol === b.symbol && a.signature === b.signature && a.scopes.join('\0') === b.scopes.join('\0');
}

/**
 * Gives each row of `long` a piece of its own, cut out of the piece that holds it (whose rows before
 * and after stay two pieces with its meta), so that a line longer than the budget is a chunk alone and
 * no other chunk grows past the limit by holding it. The row keeps the meta of the definition it lies
 * in: the piece holding it, or the two pieces around it when they are parts of one split definition
 * (a statement between two parts of a function's body). At module level (a group of several
 * definitions, module code, or between two definitions) it is a window: kind `window`, no symbol.
 * @param pieces planned on the text with the `long` rows blank
 * @param long rows to cut out, ascending
 * @returns the pieces with the long rows cut out, in no particular order (normalise them)
 */
export function carveRows(pieces: readonly Piece[], long: readonly number[]): Piece[] {
  if (long.length === 0) return [...pieces];
  const sorted = [...pieces].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Piece[] = [];
  const placed = new Set<number>();
  for (const piece of sorted) {
    const inside = long.filter((row) => row >= piece.start && row <= piece.end);
    if (inside.length === 0) {
      out.push(piece);
      continue;
    }
    const { whole: _whole, start, end, ...meta } = piece;
    let from = start;
    for (const row of inside) {
      if (from < row) out.push({ ...meta, start: from, end: row - 1 });
      if (!placed.has(row)) out.push({ ...metaFor(piece), start: row, end: row });
      placed.add(row);
      from = row + 1;
    }
    if (from <= end) out.push({ ...meta, start: from, end });
  }
  for (const row of long) {
    if (placed.has(row)) continue;
    const before = sorted.filter((piece) => piece.end < row).at(-1);
    const after = sorted.find((piece) => piece.start > row);
    const meta = before && after && sameDefinition(before, after) ? metaFor(before) : WINDOW_META;
    out.push({ ...meta, start: row, end: row });
  }
  return out;
}
