import type { SearchResponse } from '@monorag/retriever';

/**
 * Human output of `monorag search` (stdout): `path:start-end  symbol  score`, then an indented
 * snippet. Warnings are not part of it: the command writes them to stderr.
 */
export function formatResults(response: SearchResponse, snippetLines = 6): string {
  const out: string[] = [];
  if (response.results.length === 0) out.push('No results.');
  for (const hit of response.results) {
    out.push(`${hit.path}:${hit.startLine}-${hit.endLine}  ${hit.symbol ?? '-'}  ${hit.score.toPrecision(4)}`);
    const lines = hit.snippet.split('\n');
    for (const line of lines.slice(0, snippetLines)) out.push(`    ${line}`);
    if (lines.length > snippetLines) out.push('    …');
    out.push('');
  }
  const idx = response.index;
  out.push(`(${response.mode}; index of ${idx.files} files, ${idx.chunks} chunks, updated ${idx.indexedAt ?? 'never'})`);
  return `${out.join('\n')}\n`;
}
