import type { Chunk, SymbolHit } from '@monorag/shared';
import { normaliseSymbol } from './symbol-matches.js';

/**
 * The symbol a hit is labelled with. A chunk that holds several small definitions side by side is named
 * after the first of them (`afterDataDirDeleted` for lines 19-22 holding it and `cliEditNoWatcher`);
 * when the query asks for another one by name and the symbol table has that definition starting inside
 * the chunk, at the chunk's own scope level (a sibling, not a member of the chunk's definition), the hit
 * is labelled with the name asked for. Otherwise the chunk's own symbol.
 * @param definitions the symbol table's definitions of the query's identifiers (`findSymbols`, role definition)
 */
export function hitLabel(chunk: Chunk, definitions: readonly SymbolHit[]): string | null {
  if (definitions.length === 0 || chunk.symbol === null) return chunk.symbol;
  const own = normaliseSymbol(chunk.symbol);
  const scope = chunk.scopes.length > 0 ? chunk.scopes.join('.') : null;
  let asked: SymbolHit | undefined;
  for (const definition of definitions) {
    if (definition.path !== chunk.path || definition.startLine < chunk.startLine || definition.startLine > chunk.endLine) continue;
    // The chunk's own definition is asked for: its name stands.
    if (normaliseSymbol(definition.name) === own) return chunk.symbol;
    if (definition.kind !== 'test' && (definition.enclosing ?? null) === scope && definition.startLine > chunk.startLine) asked ??= definition;
  }
  return asked?.name ?? chunk.symbol;
}
