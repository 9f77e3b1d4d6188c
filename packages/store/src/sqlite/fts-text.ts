import type { Chunk } from '@monorag/shared';
import { codeTerms } from '../code-terms.js';
import { lexicalBody } from '../lexical-body.js';
import { queryTerms } from '../query-terms.js';

/** The three FTS5 columns of a chunk: space-joined {@link codeTerms}. */
export interface FtsColumns {
  /** Terms of the symbol name and its enclosing scopes. */
  symbol: string;
  /** Terms of the repo-relative path. */
  path: string;
  /** Terms of the header, the content and once more the content's comments ({@link lexicalBody}). */
  body: string;
}

/** The FTS5 column values of `chunk`. */
export function ftsColumns(chunk: Chunk): FtsColumns {
  return {
    symbol: codeTerms([chunk.symbol ?? '', ...chunk.scopes].join(' ')).join(' '),
    path: codeTerms(chunk.path).join(' '),
    body: codeTerms(lexicalBody(chunk)).join(' '),
  };
}

/**
 * The FTS5 MATCH expression for a user query: the OR of its {@link queryTerms}, each a quoted
 * string with `"` doubled, so no user text can form FTS5 syntax (`AND`, `NEAR`, `*`, `:`, parens).
 * Undefined when the query has no terms.
 */
export function ftsMatchExpression(query: string): string | undefined {
  const terms = queryTerms(query);
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}
