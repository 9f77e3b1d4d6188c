import type { ChunkStore } from '@monorag/store';
import { analyseQuery, confirmNames, type QueryAnalysis } from './analyse-query.js';
import { isTestPath } from './test-paths.js';

/** Definitions read per name: to judge a candidate name here, and by the retriever's exact-symbol step (one read serves both). */
export const DEFINITIONS_PER_NAME = 20;
/** Symbol kinds that do not make a word a name: bindings (`path = "..."` in a notebook, `const data = ...`) are too common. */
const BINDING_KINDS: ReadonlySet<string> = new Set(['constant', 'variable']);

/**
 * {@link analyseQuery}, with the words that may be names confirmed against the symbol table of `store`
 * ({@link confirmNames}): a candidate counts when the table defines that exact name as something other
 * than a constant or variable (within `pathPrefix` when given); a capitalised word in prose (`Error` in
 * "... throws an Error") only when one such definition lies outside test files.
 */
export async function analyseWithSymbols(store: Pick<ChunkStore, 'findSymbols'>, query: string, pathPrefix?: string): Promise<QueryAnalysis> {
  return confirmNames(analyseQuery(query), async (name, capitalisedOnly) => {
    const definitions = await store.findSymbols({ name, role: 'definition', limit: DEFINITIONS_PER_NAME, pathPrefix });
    return definitions.some((d) => !BINDING_KINDS.has(d.kind) && !(capitalisedOnly && isTestPath(d.path)));
  });
}
