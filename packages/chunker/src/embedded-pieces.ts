import type { Piece } from './piece.js';
import type { PlanContext } from './plan-context.js';
import { windowPieces } from './window-pieces.js';

/** A `<script>` block of a component file: rows of its content (0-based inclusive) and its language id. */
export interface ScriptBlock {
  start: number;
  end: number;
  language: 'typescript' | 'javascript';
}

const OPEN = /<script\b([^>]*)>/i;
const CLOSE = /<\/script\s*>/i;

/** The `<script>` blocks of a Vue or Svelte file (`lang="ts"` is TypeScript, anything else JavaScript). */
export function scriptBlocks(rows: readonly string[]): ScriptBlock[] {
  const blocks: ScriptBlock[] = [];
  for (let row = 0; row < rows.length; row++) {
    const open = OPEN.exec(rows[row] ?? '');
    if (!open) continue;
    const language = /\blang\s*=\s*["']?(ts|typescript)\b/i.test(open[1] ?? '') ? 'typescript' : 'javascript';
    let end = row + 1;
    while (end < rows.length && !CLOSE.test(rows[end] ?? '')) end++;
    if (end > row + 1) blocks.push({ start: row + 1, end: end - 1, language });
    row = end;
  }
  return blocks;
}

/**
 * The text of `rows` with every row outside `block` emptied, so that a parser sees only the script and
 * its rows keep their numbers.
 */
export function maskToBlock(rows: readonly string[], block: ScriptBlock): string {
  return rows.map((line, row) => (row >= block.start && row <= block.end ? line : '')).join('\n');
}

/** Line windows over the rows outside `blocks` (template, style), with the planned script pieces. */
export function embeddedPieces(ctx: PlanContext, blocks: readonly ScriptBlock[], scriptPieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [...scriptPieces];
  let row = 0;
  for (const block of blocks) {
    if (block.start - 1 >= row) out.push(...windowPieces(ctx, row, block.start - 1));
    row = block.end + 1;
  }
  if (row <= ctx.lines.lines.length - 1) out.push(...windowPieces(ctx, row, ctx.lines.lines.length - 1));
  return out;
}
