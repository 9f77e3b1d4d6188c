/**
 * How a search result names its place in the code: the enclosing definitions and the chunk's symbol
 * joined by ` > ` (`Client > constructor`, `customized 404 > unsupported method`), the scopes alone
 * when the chunk has no symbol of its own, or null for unnamed top-level code and prose without a title.
 */
export function qualifiedName(hit: { symbol: string | null; scopes: readonly string[] }): string | null {
  const parts = hit.symbol === null ? [...hit.scopes] : [...hit.scopes, hit.symbol];
  return parts.length === 0 ? null : parts.join(' > ');
}
