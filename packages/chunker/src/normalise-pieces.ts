import type { LineIndex } from './line-index.js';
import type { Piece } from './piece.js';

/**
 * Makes planned pieces satisfy the chunk contract whatever the planner did: sorted by start,
 * trimmed of blank rows at both ends, no overlaps (a later piece loses the rows an earlier one holds),
 * no all-blank pieces, and every non-blank row covered (a non-blank row between pieces joins the piece
 * before it, or the first piece when it comes before all of them).
 * Returns [] only when every row is blank or `pieces` is empty.
 */
export function normalisePieces(pieces: readonly Piece[], lines: LineIndex): Piece[] {
  const lastRow = lines.lines.length - 1;
  const sorted = [...pieces].sort((a, b) => a.start - b.start || a.end - b.end);
  const result: Piece[] = [];
  let covered = -1;
  for (const piece of sorted) {
    let start = Math.max(piece.start, covered + 1, 0);
    let end = Math.min(piece.end, lastRow);
    while (start <= end && lines.isBlank(start)) start++;
    while (end >= start && lines.isBlank(end)) end--;
    if (start > end) continue;
    result.push({ ...piece, start, end });
    covered = end;
  }
  if (result.length === 0) return result;
  // Close gaps: rows not in any piece that hold text.
  for (let i = 0; i < result.length; i++) {
    const piece = result[i] as Piece;
    const gapEnd = i + 1 < result.length ? (result[i + 1] as Piece).start - 1 : lastRow;
    for (let row = gapEnd; row > piece.end; row--) {
      if (!lines.isBlank(row)) {
        piece.end = row;
        break;
      }
    }
  }
  const first = result[0] as Piece;
  for (let row = 0; row < first.start; row++) {
    if (!lines.isBlank(row)) {
      first.start = row;
      break;
    }
  }
  return result;
}
