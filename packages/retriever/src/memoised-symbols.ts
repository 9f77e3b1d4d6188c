import type { SymbolHit } from '@monorag/shared';
import type { ChunkStore, SymbolQuery } from '@monorag/store';

/**
 * `store.findSymbols` remembered per query (name, role, limit and path prefix), for the lookups of one
 * search: the names the query analysis confirms against the symbol table are the names whose
 * definitions the exact-symbol step reads next, so each is read from the store once (one SQLite
 * lookup, or one HTTP round trip to Qdrant, per name).
 */
export function memoisedSymbols(store: Pick<ChunkStore, 'findSymbols'>): Pick<ChunkStore, 'findSymbols'> {
  const seen = new Map<string, Promise<SymbolHit[]>>();
  return {
    findSymbols(query: SymbolQuery): Promise<SymbolHit[]> {
      const key = JSON.stringify([query.name, query.role, query.limit, query.pathPrefix ?? null]);
      let hits = seen.get(key);
      if (hits === undefined) {
        hits = store.findSymbols(query);
        seen.set(key, hits);
      }
      return hits;
    },
  };
}
