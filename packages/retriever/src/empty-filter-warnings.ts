import type { ChunkStore, SearchFilter } from '@monorag/store';

/**
 * Why a filtered search found nothing, when the reason is the filter rather than the query: the
 * requested `pathPrefix` matches no indexed file, or no indexed file has the requested `language`,
 * or no file has both. Returns human-readable warnings (empty when every filter matches some file,
 * or when the request set no filter: a scope the retriever chose itself always matches a file).
 * Reads the file list only, so it costs one manifest read on an empty result. Paths are quoted as JSON
 * strings, so a newline or tab in one is shown escaped.
 */
export async function emptyFilterWarnings(
  store: ChunkStore,
  request: { pathPrefix?: string; language?: string },
  filter: SearchFilter,
): Promise<string[]> {
  if (!request.pathPrefix && !request.language) return [];
  const files = await store.listFiles();
  if (files.length === 0) return ['The index holds no files yet; run `monorag index` first.'];
  const prefix = request.pathPrefix ? filter.pathPrefix : undefined;
  const underPrefix = prefix === undefined ? files : files.filter((f) => f.path.startsWith(prefix));
  if (prefix !== undefined && underPrefix.length === 0) {
    // A glob is taken as text: say so, and what to give instead (a trial got the plain message for `src/*.ts`).
    const glob = /[*?[\]{}]/.test(prefix)
      ? ' The path is a prefix, not a glob: give the directory (`src/`) and, for a kind of file, the language filter.'
      : '';
    return [`No indexed file path starts with ${JSON.stringify(prefix)}; paths are relative to the project root (for example ${JSON.stringify(files[0]!.path)}).${glob}`];
  }
  const language = request.language;
  if (language !== undefined && !underPrefix.some((f) => f.language === language)) {
    const present = [...new Set(underPrefix.map((f) => f.language))].sort().join(', ');
    const where = prefix === undefined ? 'The index holds' : `The indexed files under "${prefix}" hold`;
    return [`${where} no ${language} files; languages present: ${present}.`];
  }
  return [];
}
