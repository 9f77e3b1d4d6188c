/** Longest signature line kept in a header, in characters. */
export const MAX_SIGNATURE_CHARS = 200;

/** A signature line: `line` trimmed and cut to `MAX_SIGNATURE_CHARS` characters. */
export function toSignature(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > MAX_SIGNATURE_CHARS ? trimmed.slice(0, MAX_SIGNATURE_CHARS) : trimmed;
}

/**
 * The context header embedded with a chunk: the path, then the scopes joined by ` > ` (when any),
 * then the signature (when any), one per line. E.g. `src/client.ts\nClient\nasync request(url: string) {`.
 */
export function buildHeader(path: string, scopes: readonly string[], signature: string | null): string {
  let header = path;
  if (scopes.length > 0) header += '\n' + scopes.join(' > ');
  if (signature !== null && signature !== '') header += '\n' + signature;
  return header;
}
