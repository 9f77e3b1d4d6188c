/**
 * Longest line, in characters, that the parser reads. A longer line (a data table, an inline SVG or
 * base64 constant) is blanked in the copy the parser sees, so that tree-sitter's time and the tree's
 * size stay those of the file's other lines, and is chunked alone (see `long-lines.ts`).
 */
export const MAX_PARSED_LINE_CHARS = 2000;
/** Largest average line length, in characters, of a file that is still parsed. */
export const MAX_AVERAGE_LINE_CHARS = 500;

/**
 * True for minified or generated text that is not worth parsing: an average line over
 * `MAX_AVERAGE_LINE_CHARS` (500), or lines over `MAX_PARSED_LINE_CHARS` (2000) making up half or more
 * of its non-blank lines. One long line among ordinary ones (a data table in hand-written code) is not
 * minified: the chunker parses the rest.
 */
export function looksMinified(lines: readonly string[]): boolean {
  let total = 0;
  let long = 0;
  let nonBlank = 0;
  for (const line of lines) {
    total += line.length + 1;
    if (line.length > MAX_PARSED_LINE_CHARS) long++;
    if (/\S/.test(line)) nonBlank++;
  }
  return total / Math.max(1, lines.length) > MAX_AVERAGE_LINE_CHARS || (long > 0 && long * 2 >= nonBlank);
}
