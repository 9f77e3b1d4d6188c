/**
 * A path as one printable line: a path with control characters (a newline in a file name) is written
 * as a JSON string with escapes (`"odd\nname.ts"`), any other path as it is. The CLI's result lines and
 * the MCP tools' Markdown headers use it, so a file name cannot break a header or forge a line.
 */
export function printablePath(p: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(p) ? JSON.stringify(p) : p;
}

/**
 * Places as `path:start-end`, comma-separated, each path through {@link printablePath}: the `alsoAt` of a
 * search hit as the CLI and the MCP tools print it. Lines 1-based, inclusive.
 */
export function formatPlaces(places: ReadonlyArray<{ path: string; startLine: number; endLine: number }>): string {
  return places.map((place) => `${printablePath(place.path)}:${place.startLine}-${place.endLine}`).join(', ');
}
