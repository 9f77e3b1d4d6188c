/** One training pair of the query adapter (eval/adapter/fit_query_adapter.py). */
export interface AdapterPair {
  /** The documentation's summary: the first paragraph of a doc comment, tags dropped, whitespace folded; 25-400 characters. */
  query: string;
  /** The code it documents as the product embeds a chunk (header, newline, content), without the comment; at most 2,000 characters. */
  code: string;
}

const DOC_COMMENT = /^\s*\/\*\*([\s\S]*?)\*\/\s*\n/;

/**
 * The pair of a JavaScript/TypeScript chunk that opens with a `/** ... *\/` comment (blank lines after it dropped): the comment's first
 * paragraph (up to a blank line or the first `@tag` line) and the rest of the chunk under its header.
 * Undefined when the chunk has no leading doc comment, the summary is under 25 or over 400 characters
 * or starts with a tag, or fewer than 4 lines of code follow it.
 */
export function docCommentPair(header: string, content: string): AdapterPair | undefined {
  const doc = DOC_COMMENT.exec(content);
  if (!doc) return undefined;
  const text = doc[1]!.split('\n').map((line) => line.replace(/^\s*\*\s?/, '')).join('\n');
  const query = text.split(/\n\s*\n|\n\s*@/)[0]!.replace(/\s+/g, ' ').trim();
  const code = content.slice(doc[0].length);
  if (query.length < 25 || query.length > 400 || query.startsWith('@') || code.split('\n').length < 4) return undefined;
  return { query, code: `${header}\n${code}`.slice(0, 2000) };
}
