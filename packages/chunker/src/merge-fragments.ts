import { isPragmaChunk } from './drop-pragma-chunks.js';
import { isLongRowPiece } from './long-lines.js';
import type { Piece } from './piece.js';
import type { PlanContext } from './plan-context.js';

/** A piece's place in the file's definitions: its enclosing scopes, then its own symbol. */
function pathOf(piece: Piece): string[] {
  return piece.symbol === null ? piece.scopes : [...piece.scopes, piece.symbol];
}

/** Length of the common prefix of two scope paths. */
function sharedDepth(a: readonly string[], b: readonly string[]): number {
  let depth = 0;
  while (depth < a.length && depth < b.length && a[depth] === b[depth]) depth++;
  return depth;
}

/**
 * Joins each fragment of a split definition that holds fewer than `minTokens` content tokens to a
 * neighbouring piece. A fragment is a piece not marked `whole`: a class head alone (`export class
 * Ky {`, the skeleton of a class whose first member is a large method), the head of a method before
 * a large nested callback, two statements between two windowed ones, the end of an object literal.
 * Alone it is a chunk of one or two lines that is almost all header: it tells a reader nothing, and
 * its header lets it outrank the definition's real pieces for the definition's name.
 *
 * A fragment joins a neighbour of its own definition, of a definition enclosing it, or of one nested
 * in it (never a sibling's: the tail of one method does not join the next method), when the joined
 * piece fits `ctx.maxTokens` with the neighbour's header; of two, the one sharing more enclosing
 * scopes, then the smaller result. The joined piece keeps the neighbour's kind, symbol, scopes and
 * signature, so a test's fragment (`describe('Pool', () => {` and a constant) never joins a piece
 * without a name (the module code before it): its title would be lost. A long row's chunk
 * (`isLongRowPiece`) stays alone: it neither joins a neighbour nor takes one in. Repeats until nothing
 * changes, so a head of two fragments goes to the piece after both.
 * (A function's last statements too small to stand alone are balanced against the part before them
 * by the planner, which knows where statements end: see `syntaxPieces`.)
 * @param pieces sorted, non-overlapping pieces (as `normalisePieces` leaves them); not modified
 * @param minTokens content tokens (header excluded) under which a fragment joins a neighbour
 * @returns the pieces with the fragments joined, sorted
 */
export function mergeFragments(ctx: PlanContext, pieces: readonly Piece[], minTokens: number): Piece[] {
  const out = pieces.map((piece) => ({ ...piece }));
  const pieceTokens = (start: number, end: number, target: Piece): number => ctx.pieceTokens(start, end, target.scopes, target.signature);
  // A source-map pragma alone stays alone, for the chunker to drop (`dropPragmaChunks`).
  const isFragment = (piece: Piece): boolean =>
    !piece.whole &&
    ctx.lines.tokens(piece.start, piece.end) < minTokens &&
    !isPragmaChunk(ctx.lines.text(piece.start, piece.end)) &&
    !isLongRowPiece(ctx.lines.lines, piece);
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 0; i < out.length; i++) {
      const piece = out[i] as Piece;
      if (!isFragment(piece)) continue;
      const path = pathOf(piece);
      const neighbours = [i - 1, i + 1].filter((j) => j >= 0 && j < out.length && !isLongRowPiece(ctx.lines.lines, out[j] as Piece));
      const joins = neighbours
        .map((j) => {
          const target = out[j] as Piece;
          const targetPath = pathOf(target);
          const depth = sharedDepth(path, targetPath);
          const start = Math.min(target.start, piece.start);
          const end = Math.max(target.end, piece.end);
          return { j, depth, related: depth === path.length || depth === targetPath.length, start, end, tokens: pieceTokens(start, end, target) };
        })
        .filter((join) => join.related && join.tokens <= ctx.maxTokens && !(piece.kind === 'test' && (out[join.j] as Piece).symbol === null))
        .sort((a, b) => b.depth - a.depth || a.tokens - b.tokens);
      const join = joins[0];
      if (!join) continue;
      const target = out[join.j] as Piece;
      target.start = join.start;
      target.end = join.end;
      out.splice(i, 1);
      changed = true;
      i--;
    }
  }
  return out;
}
