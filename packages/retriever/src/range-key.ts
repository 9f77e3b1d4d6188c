import type { Chunk } from '@monorag/shared';

/**
 * The identity of a hit across ranked lists: its chunk's path and line range (1-based, inclusive).
 * Lists from different retrievers hold different objects for the same chunk; this key joins them.
 */
export function rangeKey(hit: { chunk: Pick<Chunk, 'path' | 'startLine' | 'endLine'> }): string {
  return `${hit.chunk.path}\0${hit.chunk.startLine}\0${hit.chunk.endLine}`;
}
