import type { Chunk, ScoredChunk, SymbolHit } from '@monorag/shared';
import { rangeKey } from './range-key.js';

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
 * The exact-symbol list: chunks from `candidates` (first occurrence of a range kept) that define one
 * of `identifiers`. First the chunks holding the first line of one of `definitions` (the symbol
 * table's definitions of those names: the chunk where a definition starts, even when it shares the
 * chunk with smaller neighbours and the chunk is named after the first of them), then the chunks
 * whose symbol or innermost scope equals an identifier after {@link normaliseSymbol} (the other
 * pieces of a split definition), each group in candidate order. Definitions outrank mere mentions
 * this way; BM25 alone ranks a short call site of `foo` close to the definition of `foo`.
 * Tests (chunk kind `test`: `describe('parseHeaders', ...)` is a definition named like the function it
 * tests) come last, in the same order: they are found by their titles, but a test describes the
 * definition and never outranks it.
 */
export function symbolMatches(
  identifiers: readonly string[],
  candidates: readonly (readonly ScoredChunk[])[],
  definitions: readonly Pick<SymbolHit, 'path' | 'startLine'>[] = [],
): ScoredChunk[] {
  const wanted = new Set(identifiers.map(normaliseSymbol).filter((n) => n !== ''));
  if (wanted.size === 0) return [];
  const heads: ScoredChunk[] = [];
  const named: ScoredChunk[] = [];
  const testHeads: ScoredChunk[] = [];
  const testNamed: ScoredChunk[] = [];
  const seen = new Set<string>();
  for (const list of candidates) {
    for (const hit of list) {
      const key = rangeKey(hit);
      if (seen.has(key)) continue;
      seen.add(key);
      const isTest = hit.chunk.kind === 'test';
      if (holdsDefinitionStart(hit, definitions)) (isTest ? testHeads : heads).push(hit);
      else if (chunkNames(hit.chunk).some((n) => wanted.has(n))) (isTest ? testNamed : named).push(hit);
    }
  }
  return [...heads, ...named, ...testHeads, ...testNamed];
}

/** Whether `hit`'s chunk holds the first line of one of `definitions` (same path, start line within its lines). */
export function holdsDefinitionStart(hit: ScoredChunk, definitions: readonly Pick<SymbolHit, 'path' | 'startLine'>[]): boolean {
  const { path, startLine, endLine } = hit.chunk;
  return definitions.some((d) => d.path === path && d.startLine >= startLine && d.startLine <= endLine);
}
