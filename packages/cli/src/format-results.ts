import type { SearchResponse, StageRanks } from '@monorag/retriever';
import { formatPlaces, printablePath, qualifiedName } from '@monorag/shared';

/**
 * Human output of `monorag search` (stdout): `path:start-end  name  score` (name: the scopes and symbol, `Client > constructor`, or `-`), then an indented
 * snippet, and a footer: the mode and the index's size and age, then, when the tree has moved on from the
 * index, `(Stale index: <warning>)` (the wording of the MCP tools' `> Stale index:` line). The search's
 * own warnings (`response.warnings`) are not part of it: the command writes them to stderr. A path with control
 * characters is printed quoted with escapes, so every result header stays one line. With `ranks`
 * (`search --explain`, one entry per result), a `ranks:` line follows each header: the result's rank
 * in each stage, `-` where the stage's list lacks it. A hit whose text is also elsewhere (`alsoAt`) says
 * where, after its snippet.
 */
export function formatResults(response: SearchResponse, snippetLines = 6, ranks?: readonly StageRanks[]): string {
  const out: string[] = [];
  if (response.results.length === 0) out.push('No results.');
  for (const [i, hit] of response.results.entries()) {
    out.push(`${printablePath(hit.path)}:${hit.startLine}-${hit.endLine}  ${qualifiedName(hit) ?? '-'}  ${hit.score.toPrecision(4)}`);
    const stages = ranks?.[i];
    if (stages) out.push(`  ranks: ${Object.entries(stages).map(([stage, rank]) => `${stage} ${rank ?? '-'}`).join(', ')}`);
    const lines = hit.snippet.split('\n');
    for (const line of lines.slice(0, snippetLines)) out.push(`    ${line}`);
    if (lines.length > snippetLines) out.push('    …');
    if (hit.alsoAt) out.push(`  (same text also at ${formatPlaces(hit.alsoAt)})`);
    out.push('');
  }
  const idx = response.index;
  out.push(`(${response.mode}; index of ${idx.files} files, ${idx.chunks} chunks, updated ${idx.indexedAt ?? 'never'})`);
  if (idx.warning) out.push(`(Stale index: ${idx.warning})`);
  return `${out.join('\n')}\n`;
}
