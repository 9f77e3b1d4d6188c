import type { Piece, PieceMeta } from './piece.js';
import type { PlanContext } from './plan-context.js';

/** Window meta of plain text: kind `window`, no symbol, no scopes. */
export const WINDOW_META: PieceMeta = { kind: 'window', symbol: null, scopes: [], signature: null };

/**
 * Splits rows `start..end` (0-based inclusive) into consecutive windows of at most `ctx.maxTokens`
 * (header included), each cut preferably after a blank row in its second half (`preferCut(row)`
 * says which rows are good places to cut; default: blank rows). A single line over the budget is a
 * window of its own. Windows never start on a blank row; blank rows between windows are left out.
 */
export function windowPieces(
  ctx: PlanContext,
  start: number,
  end: number,
  meta: PieceMeta = WINDOW_META,
  preferCut: (row: number) => boolean = (row) => ctx.lines.isBlank(row),
): Piece[] {
  const pieces: Piece[] = [];
  const budget = Math.max(1, ctx.maxTokens - ctx.headerTokens(meta.scopes, meta.signature));
  let row = start;
  while (row <= end) {
    while (row <= end && ctx.lines.isBlank(row)) row++;
    if (row > end) break;
    let used = 0;
    let stop = row;
    let cut = -1;
    while (stop <= end) {
      const lineTokens = ctx.lines.tokens(stop, stop);
      if (stop > row && used + lineTokens > budget) break;
      used += lineTokens;
      if (stop > row && preferCut(stop)) cut = stop;
      stop++;
    }
    let last = stop - 1;
    if (stop <= end && cut > row + (stop - row) / 2) last = cut - 1;
    pieces.push({ ...meta, start: row, end: last });
    row = last + 1;
  }
  return pieces;
}
