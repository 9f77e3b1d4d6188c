import { toSignature } from './build-header.js';
import type { Piece } from './piece.js';
import type { PlanContext } from './plan-context.js';
import { windowPieces } from './window-pieces.js';

interface Heading {
  /** First row of the heading (the text row of a setext heading). */
  row: number;
  /** Level 1-6. */
  /** Last row of the heading (the underline of a setext heading). */
  lastRow: number;
  level: number;
  text: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const NOT_PARAGRAPH = /^ {0,3}([-*+>|]|\d+[.)]|#|`{3}|~{3}|<)/;

interface Scan {
  headings: Heading[];
  /** True for rows inside a fenced code block (fence lines included) or front matter. */
  inCode: Uint8Array;
}

function scanMarkdown(lines: readonly string[]): Scan {
  const headings: Heading[] = [];
  const inCode = new Uint8Array(lines.length);
  let row = 0;
  if (lines[0] === '---') {
    const close = lines.findIndex((line, i) => i > 0 && (line === '---' || line === '...'));
    if (close > 0) {
      inCode.fill(1, 0, close + 1);
      row = close + 1;
    }
  }
  let fence: { char: string; length: number } | null = null;
  let paragraphStart = -1;
  for (; row < lines.length; row++) {
    const line = lines[row] ?? '';
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      inCode[row] = 1;
      const marker = fenceMatch?.[1];
      if (marker !== undefined && marker[0] === fence.char && marker.length >= fence.length && fenceMatch?.[2]?.trim() === '') {
        fence = null;
      }
      continue;
    }
    if (fenceMatch && !(fenceMatch[1]?.[0] === '`' && fenceMatch[2]?.includes('`'))) {
      const marker = fenceMatch[1] ?? '```';
      fence = { char: marker[0] ?? '`', length: marker.length };
      inCode[row] = 1;
      paragraphStart = -1;
      continue;
    }
    if (line.trim() === '') {
      paragraphStart = -1;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      headings.push({ row, lastRow: row, level: (atx[1] ?? '#').length, text: (atx[2] ?? '').trim() });
      paragraphStart = -1;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && paragraphStart >= 0) {
      const text = lines.slice(paragraphStart, row).map((part) => part.trim()).join(' ');
      headings.push({ row: paragraphStart, lastRow: row, level: setext[1]?.startsWith('=') ? 1 : 2, text });
      paragraphStart = -1;
      continue;
    }
    // -2: inside a list, quote, table or HTML block, where no setext heading starts until a blank row.
    if (paragraphStart === -1) paragraphStart = NOT_PARAGRAPH.test(line) ? -2 : row;
  }
  return { headings, inCode };
}

/**
 * Plans a Markdown file as heading sections: each ATX (`#`) or setext heading starts a section that runs
 * to the next heading of any level. Kind `section`, symbol = heading text, scopes = the texts of the
 * enclosing (lower-level) headings, signature = the heading line. Text before the first heading is a
 * section with symbol null. A section holding only its heading joins the section after it. `#` lines
 * inside fenced code blocks and front matter are not headings. Sections over `ctx.maxTokens` are split
 * into windows, cutting preferably at blank rows outside code blocks.
 */
export function markdownPieces(ctx: PlanContext): Piece[] {
  const { lines } = ctx;
  const rows = lines.lines;
  const { headings, inCode } = scanMarkdown(rows);
  const pieces: Piece[] = [];
  const stack: Heading[] = [];
  const preferCut = (row: number): boolean => lines.isBlank(row) && inCode[row] === 0;
  let carryStart = -1;
  const emit = (start: number, end: number, heading: Heading | null): void => {
    const from = carryStart >= 0 ? carryStart : start;
    carryStart = -1;
    const scopes = heading ? stack.filter((h) => h !== heading).map((h) => h.text) : [];
    const signature = heading ? toSignature(rows[heading.row] ?? '') : null;
    const meta = { kind: 'section' as const, symbol: heading ? heading.text : null, scopes, signature };
    if (ctx.pieceTokens(from, end, scopes, signature) <= ctx.maxTokens) pieces.push({ ...meta, start: from, end });
    else pieces.push(...windowPieces(ctx, from, end, meta, preferCut));
  };
  const firstRow = headings[0]?.row ?? rows.length;
  if (firstRow > 0) emit(0, firstRow - 1, null);
  headings.forEach((heading, i) => {
    while (stack.length > 0 && (stack[stack.length - 1] as Heading).level >= heading.level) stack.pop();
    stack.push(heading);
    const next = headings[i + 1];
    const end = next ? next.row - 1 : rows.length - 1;
    let hasBody = false;
    for (let row = heading.lastRow + 1; row <= end && !hasBody; row++) hasBody = !lines.isBlank(row);
    if (!hasBody && next && next.level > heading.level) {
      if (carryStart < 0) carryStart = heading.row;
      return;
    }
    emit(heading.row, end, heading);
  });
  return pieces;
}
