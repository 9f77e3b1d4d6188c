/**
 * The one indexed file that the query's file references point at, or undefined when there is none
 * or more than one (then the search is not scoped: "fall back to search when ambiguous"). A reference
 * matches a path equal to it or ending in `/<ref>`; several references must all name the same file.
 * @param fileRefs references from the query, e.g. `retry-handler.js` or `lib/core/util.js`.
 * @param paths every indexed repo-relative path.
 */
export function resolveFileScope(fileRefs: readonly string[], paths: readonly string[]): string | undefined {
  if (fileRefs.length === 0) return undefined;
  const found = new Set<string>();
  for (const ref of fileRefs) {
    const clean = ref.replace(/^(\.\.?\/)+/, '');
    for (const p of paths) if (p === clean || p.endsWith(`/${clean}`)) found.add(p);
  }
  return found.size === 1 ? [...found][0] : undefined;
}
