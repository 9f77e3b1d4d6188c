import type { Chunk } from '@monorag/shared';

/** Shortest unbroken run of data characters, in characters, for a chunk to count as a piece of embedded binary data. */
export const DATA_RUN_MIN_CHARS = 200;

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
 * Whether a chunk's content is a piece of embedded binary data: it holds an unbroken run of at least
 * {@link DATA_RUN_MIN_CHARS} characters of the base64 / hex alphabet (no identifier or word is that
 * long), and {@link DATA_SHARE} or more of all its characters (line breaks aside) are from that alphabet (the line windows of a WebAssembly module or an image inlined as a
 * string literal, e.g. undici's `lib/milo/simd.js`). Code and prose never come close: their spaces,
 * punctuation and operators make up far more than 5%.
 */
export function isDataChunk(content: string): boolean {
  let chars = 0;
  let data = 0;
  let run = 0;
  let longestRun = 0;
  for (let i = 0; i < content.length; i++) {
    const code = content.charCodeAt(i);
    const inAlphabet = isDataChar(code);
    run = inAlphabet ? run + 1 : 0;
    if (run > longestRun) longestRun = run;
    if (code === 10 || code === 13) continue;
    chars++;
    if (inAlphabet) data++;
  }
  return longestRun >= DATA_RUN_MIN_CHARS && data / chars >= DATA_SHARE;
}

/**
 * The chunks of a file without its pieces of embedded binary data ({@link isDataChunk}): they match no
 * question, and for a short or odd query their random letters outrank code. The file itself stays
 * indexed (its code chunks) and readable in full through file context.
 */
export function dropDataChunks(chunks: readonly Chunk[]): Chunk[] {
  return chunks.filter((chunk) => !isDataChunk(chunk.content));
}
