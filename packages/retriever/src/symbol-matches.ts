import type { Chunk, ScoredChunk } from '@monorag/shared';

/** Lowercased identifier without sigils, brackets or a member path: `#onAbort` -> `onabort`, `pino.destination` -> `destination`. */
export function normaliseSymbol(name: string): string {
  const last = name.split('.').pop() ?? name;
  return last.replace(/[^\p{L}\p{N}_$]/gu, '').replace(/^\$+|\$+$/g, '').toLowerCase();
}

function chunkNames(chunk: Chunk): string[] {
  const names: string[] = [];
  if (chunk.symbol) names.push(normaliseSymbol(chunk.symbol));
  const inner = chunk.scopes[chunk.scopes.length - 1];
  if (inner) names.push(normaliseSymbol(inner));
  return names.filter((n) => n !== '');
}

/**
 * The exact-symbol list: chunks from `candidates` (in their order, first occurrence of a range
 * kept) whose symbol or innermost scope equals one of `identifiers` after {@link normaliseSymbol}.
 * Definitions outrank mere mentions this way; BM25 alone ranks a short call site of `foo` close to
 * the definition of `foo`.
 */
export function symbolMatches(identifiers: readonly string[], candidates: readonly (readonly ScoredChunk[])[]): ScoredChunk[] {
  const wanted = new Set(identifiers.map(normaliseSymbol).filter((n) => n !== ''));
  if (wanted.size === 0) return [];
  const out: ScoredChunk[] = [];
  const seen = new Set<string>();
  for (const list of candidates) {
    for (const hit of list) {
      const key = `${hit.chunk.path}\0${hit.chunk.startLine}\0${hit.chunk.endLine}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (chunkNames(hit.chunk).some((n) => wanted.has(n))) out.push(hit);
    }
  }
  return out;
}
