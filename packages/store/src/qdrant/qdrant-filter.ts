import type { SearchFilter } from '../chunk-store.js';

/** A Qdrant filter condition as sent over REST (the subset this store uses). */
export type QdrantCondition =
  | { key: string; match: { value: string } }
  | { key: string; match: { any: string[] } }
  | { has_id: string[] };

/** A Qdrant filter as sent over REST (the subset this store uses). */
export interface QdrantFilter {
  must: QdrantCondition[];
  must_not?: QdrantCondition[];
}

/** Payload field telling chunk, file (manifest) and meta points apart. */
export const DOC_FIELD = 'doc';

/** Payload field holding every code-point prefix of a chunk's path (see {@link pathPrefixes}). */
export const PATH_PREFIXES_FIELD = 'path_prefixes';

/** The condition selecting points of one document type. */
export function docIs(doc: 'chunk' | 'file' | 'meta' | 'symbol'): QdrantCondition {
  return { key: DOC_FIELD, match: { value: doc } };
}

/**
 * Every non-empty code-point prefix of `path` (`a/b` -> `a`, `a/`, `a/b`), stored as a keyword array
 * with a keyword index so that a {@link SearchFilter.pathPrefix} is one exact match, with the same
 * plain-string-prefix meaning as the SQLite store (`lib` matches `libx/a.ts`). Costs one keyword per
 * character of the path.
 */
export function pathPrefixes(path: string): string[] {
  const out: string[] = [];
  let prefix = '';
  for (const ch of path) {
    prefix += ch;
    out.push(prefix);
  }
  return out;
}

/** The filter selecting chunks that pass `filter` (every chunk when it is empty). */
export function chunkFilter(filter: SearchFilter | undefined): QdrantFilter {
  const must: QdrantCondition[] = [docIs('chunk')];
  if (filter?.pathPrefix) must.push({ key: PATH_PREFIXES_FIELD, match: { value: filter.pathPrefix } });
  if (filter?.language !== undefined) must.push({ key: 'language', match: { value: filter.language } });
  return { must };
}
