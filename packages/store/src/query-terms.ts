import { stemmer } from 'stemmer';
import { codeTerms } from './code-terms.js';

/**
 * English function words dropped from queries (never from documents): they occur in nearly every
 * chunk of comments and docs and would only add noise to the OR query. Single letters (`a`, `i`) are
 * already dropped by {@link codeTerms}'s minimum length.
 */
export const QUERY_STOPWORDS: ReadonlySet<string> = new Set([
  'an', 'and', 'are', 'as', 'at', 'be', 'been', 'by', 'can', 'could', 'did', 'do', 'does', 'for',
  'from', 'has', 'have', 'how', 'in', 'into', 'is', 'it', 'its', 'me', 'my', 'of', 'on', 'or', 'our',
  'should', 'that', 'the', 'their', 'there', 'these', 'this', 'those', 'to', 'was', 'we', 'were',
  'what', 'when', 'where', 'which', 'who', 'why', 'will', 'with', 'would', 'you', 'your',
]);

/**
 * The query side of lexical search: {@link codeTerms} of `query`, deduplicated (first occurrence
 * order kept) and without {@link QUERY_STOPWORDS} (compared after stemming, as the terms are).
 * `"How does parseHeaders work?"` gives `['parseheaders', 'pars', 'header', 'work']`. An empty array
 * means "no lexical query".
 */
export function queryTerms(query: string): string[] {
  const seen = new Set<string>();
  for (const term of codeTerms(query)) {
    if (!STEMMED_STOPWORDS.has(term)) seen.add(term);
  }
  return [...seen];
}

/** {@link QUERY_STOPWORDS} as {@link codeTerms} emits them (stemmed). */
const STEMMED_STOPWORDS: ReadonlySet<string> = new Set([...QUERY_STOPWORDS].map((w) => stemmer(w)));
