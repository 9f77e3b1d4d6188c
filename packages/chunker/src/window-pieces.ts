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
  balanceLastWindow(ctx, pieces, budget);
  return pieces;
}

/**
 * A last window under a quarter of `budget` (content tokens) takes rows from the window before it, so
 * that the two split their rows about evenly (at a blank row when one is near the middle): greedy
 * filling can leave one line (`return wrapLogger(...)`) alone, a chunk that is almost all header and
 * outranks the definition's head for its name. Leaves the windows as they are when a single line
 * over the budget makes an even split impossible.
 */
function balanceLastWindow(ctx: PlanContext, pieces: Piece[], budget: number): void {
  const last = pieces[pieces.length - 1];
  const previous = pieces[pieces.length - 2];
  if (!last || !previous || ctx.lines.tokens(last.start, last.end) >= budget / 4) return;
  const total = ctx.lines.tokens(previous.start, last.end);
  let split = -1;
  let best = Infinity;
  for (let row = previous.start + 1; row <= previous.end; row++) {
    if (ctx.lines.isBlank(row)) continue;
    if (ctx.lines.tokens(row, last.end) > budget) continue;
    const before = ctx.lines.tokens(previous.start, row - 1);
    if (before > budget) break;
    // How far from even, plus a penalty when the cut does not fall after a blank row.
    const score = Math.abs(before - total / 2) + (ctx.lines.isBlank(row - 1) ? 0 : total / 8);
    if (score < best) {
      best = score;
      split = row;
    }
  }
  if (split === -1) return;
  let end = split - 1;
  while (end > previous.start && ctx.lines.isBlank(end)) end--;
  previous.end = end;
  last.start = split;
}
