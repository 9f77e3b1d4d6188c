import type { Chunk } from '@monorag/shared';

/** Shortest chunk content, in characters, that can count as a piece of embedded binary data. */
export const DATA_CHUNK_MIN_CHARS = 200;

/**
 * Least share of a chunk's characters (line breaks aside; spaces count against it) from the base64 /
 * base64url / hex alphabet for it to count as data. Prose is about one sixth spaces and code is full
 * of spaces and punctuation; a blob split over indented string literals keeps over 95%.
 */
const DATA_SHARE = 0.95;

/** Whether a UTF-16 code unit is in the base64 / base64url / hex alphabet: A-Z a-z 0-9 + / = _ -. */
function isDataChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 || code === 47 || code === 61 || code === 95 || code === 45;
}

/**
 * Whether a chunk's content is a piece of embedded binary data: at least
 * {@link DATA_CHUNK_MIN_CHARS} characters, {@link DATA_SHARE} or more of them (line breaks aside)
 * from the base64 / hex alphabet (the line windows of a WebAssembly module or an image inlined as a
 * string literal, e.g. undici's `lib/milo/simd.js`). Code and prose never come close: their spaces,
 * punctuation and operators make up far more than 5%.
 */
export function isDataChunk(content: string): boolean {
  let chars = 0;
  let data = 0;
  for (let i = 0; i < content.length; i++) {
    const code = content.charCodeAt(i);
    if (code === 10 || code === 13) continue;
    chars++;
    if (isDataChar(code)) data++;
  }
  return chars >= DATA_CHUNK_MIN_CHARS && data / chars >= DATA_SHARE;
}

/**
 * The chunks of a file without its pieces of embedded binary data ({@link isDataChunk}): they match no
 * question, and for a short or odd query their random letters outrank code. The file itself stays
 * indexed (its code chunks) and readable in full through file context.
 */
export function dropDataChunks(chunks: readonly Chunk[]): Chunk[] {
  return chunks.filter((chunk) => !isDataChunk(chunk.content));
}
