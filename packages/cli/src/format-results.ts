import type { SearchResponse, StageRanks } from '@monorag/retriever';
import { countNoun, formatPlaces, printablePath, qualifiedName } from '@monorag/shared';
import { matchingLine, SNIPPET_GAP } from '@monorag/retriever';

/**
 * Human output of `monorag search` (stdout): `path:start-end  name  score` (name: the scopes and symbol, `Client > constructor`, or `-`), then an indented
 * snippet, and a footer: the mode and the index's size and age, then, when the tree has moved on from the
 * index, `(Stale index: <warning>)` (the wording of the MCP tools' `> Stale index:` line). The search's
 * own warnings (`response.warnings`) are not part of it: the command writes them to stderr. A path with control
 * characters is printed quoted with escapes, so every result header stays one line. With `ranks`
 * (`search --explain`, one entry per result), a `ranks:` line follows each header: the result's rank
 * in each stage, `-` where the stage's list lacks it. A hit whose text is also elsewhere (`alsoAt`) says
 * where, after its snippet. With `query`, a snippet cut to `snippetLines` keeps its line matching the query (see `snippetShown`).
 */
export function formatResults(response: SearchResponse, snippetLines = 6, ranks?: readonly StageRanks[], query?: string): string {
  const out: string[] = [];
  if (response.results.length === 0) out.push('No results.');
  for (const [i, hit] of response.results.entries()) {
    out.push(`${printablePath(hit.path)}:${hit.startLine}-${hit.endLine}  ${qualifiedName(hit) ?? '-'}  ${hit.score.toPrecision(4)}`);
    const stages = ranks?.[i];
    if (stages) out.push(`  ranks: ${Object.entries(stages).map(([stage, rank]) => `${stage} ${rank ?? '-'}`).join(', ')}`);
    for (const line of snippetShown(hit.snippet, snippetLines, query)) out.push(`    ${line}`);
    if (hit.alsoAt) out.push(`  (same text also at ${formatPlaces(hit.alsoAt)})`);
    out.push('');
  }
  const idx = response.index;
  out.push(`(${response.mode}; index of ${countNoun(idx.files, 'file')}, ${countNoun(idx.chunks, 'chunk')}, updated ${idx.indexedAt ?? 'never'})`);
  if (idx.warning) out.push(`(Stale index: ${idx.warning})`);
  return `${out.join('\n')}\n`;
}

/**
 * The snippet lines `search` prints, at most `max` + 1: its first lines and `…` when it is longer; when the
 * snippet shows a line matching the query after a gap (see `makeSnippet`), or, given `query`, its line
 * matching the query (`matchingLine`) lies past the first `max`, the first lines are cut to keep that
 * line: `head…`, `…`, the matching line, then `…` when more follows.
 */
export function snippetShown(snippet: string, max: number, query?: string): string[] {
  const lines = snippet.split('\n');
  const gap = lines.findIndex((line, i) => line === SNIPPET_GAP && i + 1 < lines.length && lines[i + 1] !== SNIPPET_GAP);
  if (gap >= 0) return withMatch(lines, gap, gap + 1, max);
  if (lines.length <= max) return lines;
  const at = query === undefined ? -1 : matchingLine(lines, query);
  return at >= max ? withMatch(lines, max - 2, at, max) : [...lines.slice(0, max), SNIPPET_GAP];
}

/** The first lines of `lines` before `end` (at most `max` - 2, at least 1), `…`, the line at `at`, and `…` when more follows it. */
function withMatch(lines: readonly string[], end: number, at: number, max: number): string[] {
  return [...lines.slice(0, Math.max(1, Math.min(end, max - 2))), SNIPPET_GAP, lines[at]!, ...(at + 1 < lines.length ? [SNIPPET_GAP] : [])];
}
