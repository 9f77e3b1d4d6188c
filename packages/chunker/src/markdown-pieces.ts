import type { Piece } from './piece.js';
import type { PlanContext } from './plan-context.js';
import { sectionPieces, type Heading } from './section-pieces.js';

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
      headings.push({ start: row, row, lastRow: row, level: (atx[1] ?? '#').length, text: (atx[2] ?? '').trim() });
      paragraphStart = -1;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && paragraphStart >= 0) {
      const text = lines.slice(paragraphStart, row).map((part) => part.trim()).join(' ');
      headings.push({ start: paragraphStart, row: paragraphStart, lastRow: row, level: setext[1]?.startsWith('=') ? 1 : 2, text });
      paragraphStart = -1;
      continue;
    }
    // -2: inside a list, quote, table or HTML block, where no setext heading starts until a blank row.
    if (paragraphStart === -1) paragraphStart = NOT_PARAGRAPH.test(line) ? -2 : row;
  }
  return { headings, inCode };
}

/**
 * Plans a Markdown file as heading sections (see `sectionPieces`): each ATX (`#`) or setext heading starts a
 * section. `#` lines inside fenced code blocks and front matter are not headings. Sections over
 * `ctx.maxTokens` are split into windows, cutting preferably at blank rows outside code blocks.
 */
export function markdownPieces(ctx: PlanContext): Piece[] {
  const { headings, inCode } = scanMarkdown(ctx.lines.lines);
  return sectionPieces(ctx, headings, { preferCut: (row) => ctx.lines.isBlank(row) && inCode[row] === 0 });
}
