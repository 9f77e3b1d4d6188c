/** The line that stands for a gap in a snippet: lines of the chunk left out between the head and a matching line. */
export const SNIPPET_GAP = '…';

/** Query words a line can show: the query's lowercased words of three or more letters, digits, `_` or `$`, without common English words. */
function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_$]{3,}/gu) ?? [];
  return [...new Set(words)].filter((word) => !STOPWORDS.has(word));
}

const STOPWORDS = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'when', 'what', 'where', 'which', 'how', 'does', 'are', 'was', 'not', 'can', 'its', 'there', 'their', 'then', 'than', 'who', 'why', 'will', 'would', 'should', 'could', 'have', 'has', 'had', 'but', 'all', 'any', 'each', 'one', 'out', 'about', 'via', 'you', 'your']);

/** Index of the line (0-based) holding the most distinct query words, the first of equals; -1 when none holds any. */
function bestLine(lines: readonly string[], words: readonly string[]): number {
  let best = -1;
  let bestCount = 0;
  for (const [i, line] of lines.entries()) {
    const lower = line.toLowerCase();
    const count = words.filter((word) => lower.includes(word)).length;
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Index (0-based) of the line of `lines` holding the most distinct words of `query` (three letters or
 * more, common English words left out), the first of equals; -1 when none holds any.
 */
export function matchingLine(lines: readonly string[], query: string): number {
  return bestLine(lines, queryWords(query));
}

/** The first whole lines of `text` that fit in `maxChars` characters (at least one line, itself cut at maxChars when longer). */
function head(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  return cut > 0 ? text.slice(0, cut) : text.slice(0, maxChars);
}

/**
 * A bounded excerpt of a chunk's `content`, at most about `maxChars` characters: the whole content when it
 * fits; otherwise its first whole lines with a `…` line (`SNIPPET_GAP`) after them. With a `query`, when the
 * line holding the most of the query's words (three letters or more, common English words left out) lies
 * past those first lines, that line follows them after a `…` line (the first lines shortened to make room),
 * so a result matched near its end shows why: `head\n…\nmatching line\n…`. The first line is always the
 * chunk's first (its `startLine`).
 */
export function makeSnippet(content: string, maxChars: number, query?: string): string {
  if (content.length <= maxChars) return content;
  const first = head(content, maxChars);
  const shown = first.split('\n').length;
  const lines = content.split('\n');
  const at = query === undefined ? -1 : bestLine(lines, queryWords(query));
  if (at < shown) return `${first}\n${SNIPPET_GAP}`;
  const match = (lines[at] ?? '').slice(0, Math.floor(maxChars / 2));
  const room = Math.max(1, maxChars - match.length - 2 * (SNIPPET_GAP.length + 1));
  const start = head(content, room);
  const tail = at < lines.length - 1 ? `\n${SNIPPET_GAP}` : '';
  // A matching line right after the shortened head needs no gap line between them.
  const gap = start.split('\n').length === at ? '' : `\n${SNIPPET_GAP}`;
  return `${start}${gap}\n${match}${tail}`;
}
