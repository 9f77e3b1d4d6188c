import type { TokenCounter } from './chunker.js';

/**
 * The lines of one normalised file with per-line token counts. Rows are 0-based here;
 * chunks convert them to 1-based lines.
 */
export interface LineIndex {
  /** The file's lines (split at `\n`); a trailing newline gives a last, empty line. */
  readonly lines: readonly string[];
  /** True when the row is empty or whitespace only. */
  isBlank(row: number): boolean;
  /** Tokens of rows `start..end` (inclusive), summed per line; 0 when `end < start`. */
  tokens(start: number, end: number): number;
  /** Text of rows `start..end` (inclusive) joined by `\n`. */
  text(start: number, end: number): string;
}

/** Builds a `LineIndex` for `text`, counting each line's tokens once with `countTokens`. */
export function createLineIndex(text: string, countTokens: TokenCounter): LineIndex {
  const lines = text.split('\n');
  const blank = new Uint8Array(lines.length);
  const prefix = new Float64Array(lines.length + 1);
  for (let row = 0; row < lines.length; row++) {
    const line = lines[row] ?? '';
    const isBlank = line.trim() === '';
    blank[row] = isBlank ? 1 : 0;
    prefix[row + 1] = (prefix[row] ?? 0) + (isBlank ? 0 : countTokens(line));
  }
  return {
    lines,
    isBlank: (row) => blank[row] !== 0,
    tokens: (start, end) => (end < start ? 0 : (prefix[end + 1] ?? 0) - (prefix[start] ?? 0)),
    text: (start, end) => lines.slice(start, end + 1).join('\n'),
  };
}
