/**
 * How many of `spans` (offsets in UTF-16 code units of `text`, end exclusive) touch lines
 * `from`..`to` of `text` (1-based, inclusive; lines end at `\n`).
 */
export function spansInLines(text: string, spans: readonly { start: number; end: number }[], from: number, to: number): number {
  if (spans.length === 0) return 0;
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  /** 1-based line of the character at `offset`. */
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return spans.filter((s) => lineOf(s.start) <= to && lineOf(s.end - 1) >= from).length;
}
