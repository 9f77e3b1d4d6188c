import type { Piece } from './piece.js';
import type { PlanContext } from './plan-context.js';
import { sectionPieces, type Heading } from './section-pieces.js';

/** An adornment line: one punctuation character repeated, at least 3 times (docutils allows any of these). */
const ADORNMENT = /^([!-/:-@[-`{-~])\1{2,}\s*$/;

/**
 * Plans reStructuredText as sections. A title is a text line underlined (and optionally overlined) by an
 * adornment at least as long as the title, or 3+ characters; levels follow the order in which adornment
 * styles (character + overline) first appear, as docutils does. Literal blocks are not tracked: an
 * adornment-looking pair inside `::` blocks is rare and only moves a chunk boundary.
 */
export function rstPieces(ctx: PlanContext): Piece[] {
  const rows = ctx.lines.lines;
  const styles: string[] = [];
  const headings: Heading[] = [];
  for (let row = 0; row + 1 < rows.length; row++) {
    const title = rows[row] ?? '';
    const under = ADORNMENT.exec(rows[row + 1] ?? '');
    if (!under || title.trim() === '' || ADORNMENT.test(title) || /^\s/.test(title)) continue;
    if (row > 0 && !ctx.lines.isBlank(row - 1) && !ADORNMENT.test(rows[row - 1] ?? '')) continue;
    const length = (rows[row + 1] ?? '').trimEnd().length;
    if (length < Math.min(title.trimEnd().length, 3)) continue;
    const over = row > 0 && (rows[row - 1] ?? '').trimEnd() === (rows[row + 1] ?? '').trimEnd();
    const style = `${over ? 'o' : 'u'}${under[1]}`;
    if (!styles.includes(style)) styles.push(style);
    const start = over ? row - 1 : row;
    headings.push({ start, row, lastRow: row + 1, level: styles.indexOf(style) + 1, text: title.trim() });
    row++;
  }
  return sectionPieces(ctx, headings);
}
