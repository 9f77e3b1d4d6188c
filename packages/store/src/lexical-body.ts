import type { Chunk } from '@monorag/shared';
import { commentText } from './comment-text.js';

/**
 * The text of a chunk's BM25 `body` field (SQLite FTS5 column and Qdrant sparse vector alike): the
 * context header, the content, then the content's comments once more ({@link commentText}), so a
 * term written in a code chunk's comments counts twice: field weighting of the natural-language part
 * of code, which is where a question in plain words meets the code (Robertson, Zaragoza and Taylor,
 * "Simple BM25 extension to multiple weighted fields", CIKM 2004: repeating a field's text is the
 * weighted-field BM25F of integer weights). Measured in eval/RESULTS.md.
 */
export function lexicalBody(chunk: Chunk): string {
  const comments = commentText(chunk);
  return comments === '' ? `${chunk.header}\n${chunk.content}` : `${chunk.header}\n${chunk.content}\n${comments}`;
}
