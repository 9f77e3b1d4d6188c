import { testTitleName, type ScoredChunk, type SymbolHit } from '@monorag/shared';
import type { ChunkStore } from '@monorag/store';
import { DEFINITIONS_PER_NAME } from './analyse-with-symbols.js';
import { holdsDefinitionStart } from './symbol-matches.js';

/**
 * Which results the test-file prior leaves as they are, for `query`:
 * - the chunks holding the start of one of `named` (the symbol table's non-test definitions of the
 *   names the query asks for: a fixture, a test-only helper);
 * - a test whose title is the whole query: the chunk holding its start, by the symbol table (a small
 *   test shares the chunk of its `describe`, whose name the chunk carries), or one named by that title;
 * - but not when that title also names one of `named` (`describe('Pool')` over `class Pool`): the
 *   query asks for the definition, and the tests echoing it take the prior.
 * Reads the symbol table once (tests titled by the query, within `pathPrefix`).
 */
export async function testPriorExemption(
  symbols: Pick<ChunkStore, 'findSymbols'>,
  query: string,
  named: readonly SymbolHit[],
  pathPrefix: string | undefined,
): Promise<(hit: ScoredChunk) => boolean> {
  const title = testTitleName(query);
  const titled = (await symbols.findSymbols({ name: title, role: 'definition', limit: DEFINITIONS_PER_NAME, pathPrefix })).filter(
    (definition) => definition.kind === 'test',
  );
  const lowerTitle = title.toLowerCase();
  if (named.some((definition) => definition.name.toLowerCase() === lowerTitle)) return (hit) => holdsDefinitionStart(hit, named);
  if (titled.length > 0) {
    const kept = [...named, ...titled];
    return (hit) => holdsDefinitionStart(hit, kept);
  }
  return (hit) => holdsDefinitionStart(hit, named) || (hit.chunk.kind === 'test' && hit.chunk.symbol?.toLowerCase() === lowerTitle);
}
