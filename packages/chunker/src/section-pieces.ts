import { toSignature } from './build-header.js';
import type { Piece } from './piece.js';
import type { PlanContext } from './plan-context.js';
import { windowPieces } from './window-pieces.js';

/** A section title found by a planner (Markdown or rst heading, top-level key of a data file). */
export interface Heading {
  /** First row of the section: the title, or comments attached above it. */
  start: number;
  /** Row of the title line (the signature). */
  row: number;
  /** Last row of the title (an underline), >= `row`. */
  lastRow: number;
  /** Nesting level, 1 = outermost. */
  level: number;
  text: string;
}

/** Options of {@link sectionPieces}. */
export interface SectionOptions {
  /** Rows where a window may preferably be cut; default blank rows. */
  preferCut?: (row: number) => boolean;
  /** Group neighbouring sections up to the limit (data-file keys); default false (one chunk per section). */
  group?: boolean;
}

/**
 * Plans sections: each heading starts a section that runs to the next heading of any level. Kind
 * `section`, symbol = heading text, scopes = the texts of the enclosing (lower-level) headings, signature =
 * the title line. Rows before the first heading are a section with symbol null. A section holding only its
 * title joins the section after it when that one is nested deeper, or (without `group`) at the same level. Sections over `ctx.maxTokens` are split
 * into windows; with `group`, neighbouring sections that fit together form one chunk (symbol of the first).
 */
export function sectionPieces(ctx: PlanContext, headings: readonly Heading[], options: SectionOptions = {}): Piece[] {
  const { lines } = ctx;
  const rows = lines.lines;
  const preferCut = options.preferCut ?? ((row: number) => lines.isBlank(row));
  const pieces: Piece[] = [];
  const stack: Heading[] = [];
  let carryStart = -1;
  let grouped: Piece | null = null;
  const emit = (start: number, end: number, heading: Heading | null): void => {
    const from = carryStart >= 0 ? carryStart : start;
    carryStart = -1;
    const scopes = heading ? stack.filter((h) => h !== heading).map((h) => h.text) : [];
    const signature = heading ? toSignature(rows[heading.row] ?? '') : null;
    const meta = { kind: 'section' as const, symbol: heading ? heading.text : null, scopes, signature };
    if (options.group && grouped !== null && ctx.pieceTokens(grouped.start, end, grouped.scopes, grouped.signature) <= ctx.maxTokens) {
      grouped.end = end;
      return;
    }
    if (ctx.pieceTokens(from, end, scopes, signature) <= ctx.maxTokens) {
      grouped = { ...meta, start: from, end };
      pieces.push(grouped);
    } else {
      grouped = null;
      pieces.push(...windowPieces(ctx, from, end, meta, preferCut));
    }
  };
  const firstRow = headings[0]?.start ?? rows.length;
  // Grouped sections: rows before the first key (`{`, a comment) belong to it rather than standing alone.
  if (firstRow > 0 && options.group && headings.length > 0) carryStart = 0;
  else if (firstRow > 0) emit(0, firstRow - 1, null);
  headings.forEach((heading, i) => {
    while (stack.length > 0 && (stack[stack.length - 1] as Heading).level >= heading.level) stack.pop();
    stack.push(heading);
    const next = headings[i + 1];
    const end = next ? next.start - 1 : rows.length - 1;
    let hasBody = false;
    for (let row = heading.lastRow + 1; row <= end && !hasBody; row++) hasBody = !lines.isBlank(row);
    // A title-only section opens the next one when that is nested deeper, or, for document headings
    // (not grouped data-file keys, whose one-line keys group anyway), a sibling: a run of API headings
    // sharing one description (`### ky.get(...)`, `### ky.post(...)`, ... then the text).
    if (!hasBody && next && (next.level > heading.level || (!options.group && next.level === heading.level))) {
      if (carryStart < 0) carryStart = heading.start;
      return;
    }
    emit(heading.start, end, heading);
  });
  return pieces;
}
