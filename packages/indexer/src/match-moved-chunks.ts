import type { Chunk } from '@monorag/shared';

/**
 * For a file that moved (same content under a new path), the id of the old chunk each new chunk
 * corresponds to: same lines, same content and the same header below its first line (the path), so
 * the moved file can keep the old chunks' vectors. Returns one old chunk id per chunk of `moved`, in
 * order, or undefined when the chunking differs (e.g. the extension, and so the language, changed)
 * and the file must be embedded anew.
 */
export function matchMovedChunks(moved: readonly Chunk[], departed: readonly Chunk[]): string[] | undefined {
  if (moved.length !== departed.length) return undefined;
  const byPlace = new Map(departed.map((c) => [placeKey(c), c.id]));
  const ids: string[] = [];
  for (const chunk of moved) {
    const id = byPlace.get(placeKey(chunk));
    if (id === undefined) return undefined;
    ids.push(id);
  }
  return ids;
}

/** Lines, header without its path line, and content: what a chunk is apart from where its file lives. */
function placeKey(chunk: Chunk): string {
  const newline = chunk.header.indexOf('\n');
  const context = newline === -1 ? '' : chunk.header.slice(newline + 1);
  return `${chunk.startLine}:${chunk.endLine}\0${context}\0${chunk.content}`;
}
