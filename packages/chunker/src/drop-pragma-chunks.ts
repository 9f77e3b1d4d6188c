import type { Chunk } from '@monorag/shared';

/**
 * A line that only tells a tool where a file's source map or source is: `//# sourceMappingURL=...`,
 * the older `//@ sourceMappingURL=...`, `/*# sourceMappingURL=... *\/` (CSS), and `sourceURL` alike
 * (the Source Map specification, "Linking generated code to source maps").
 */
const PRAGMA_LINE = /^\s*(?:\/\/[#@]\s*source(?:Mapping)?URL=\S*|\/\*[#@]\s*source(?:Mapping)?URL=\S*\s*\*\/)\s*$/;

/** Whether every non-blank line of a chunk's content is a source-map pragma ({@link PRAGMA_LINE}), and it has one. */
export function isPragmaChunk(content: string): boolean {
  const lines = content.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 0 && lines.every((line) => PRAGMA_LINE.test(line));
}

/**
 * The chunks of a file without those that hold only source-map pragmas ({@link isPragmaChunk}): the
 * last line of every compiled JavaScript or CSS file, left as a chunk of its own after the last
 * definition. It matches no question, yet its path-laden header and the file name in the URL rank it
 * next to the file's code for any query naming the file (a trial saw `merge.js:66-66` third for
 * "ky.extend merging options"). The line stays readable through file context.
 */
export function dropPragmaChunks(chunks: readonly Chunk[]): Chunk[] {
  return chunks.filter((chunk) => !isPragmaChunk(chunk.content));
}
