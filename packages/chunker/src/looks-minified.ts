/** Longest line, in characters, of a file that is still parsed. */
export const MAX_PARSED_LINE_CHARS = 2000;
/** Largest average line length, in characters, of a file that is still parsed. */
export const MAX_AVERAGE_LINE_CHARS = 500;

/** True for minified or generated text that is not worth parsing: a line over 2000 chars or an average over 500. */
export function looksMinified(lines: readonly string[]): boolean {
  let total = 0;
  for (const line of lines) {
    if (line.length > MAX_PARSED_LINE_CHARS) return true;
    total += line.length + 1;
  }
  return total / Math.max(1, lines.length) > MAX_AVERAGE_LINE_CHARS;
}
