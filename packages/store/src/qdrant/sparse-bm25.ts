import type { Chunk } from '@monorag/shared';
import { codeTerms } from '../code-terms.js';
import { lexicalBody } from '../lexical-body.js';
import { queryTerms } from '../query-terms.js';
import { BM25_WEIGHTS } from '../sqlite/search-lexical.js';

/** A Qdrant sparse vector: distinct `indices` (u32) and their `values`, same length. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

/**
 * BM25 term-frequency saturation. 1.2 is the value FTS5's `bm25()` hard-codes (and the usual
 * choice after Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009,
 * which gives k1 in [1.2, 2.0]), so the Qdrant store ranks like the SQLite store.
 */
export const BM25_K1 = 1.2;

/** BM25 length normalisation, 0.75 as in FTS5's `bm25()` and Robertson & Zaragoza (2009). */
export const BM25_B = 0.75;

/**
 * Average chunk length in terms assumed by the length normalisation. BM25 wants the collection's true
 * average, but sparse values are computed client-side, one file at a time by many workers, so a fixed
 * value keeps every point's values independent of what else is indexed (and of indexing order).
 * 120 is the mean term count (symbol + path + body columns) of the chunks of the eval corpora
 * (undici@8.13.1 and pino@10.4.0 with chunker tsc-2), rounded.
 */
export const BM25_AVG_TERMS = 120;

/**
 * Sparse index of a term: 32-bit FNV-1a of its UTF-16 code units. Distinct terms may collide (about
 * one pair per 2^32 / n^2 for n distinct terms): colliding terms then share one weight, as two
 * spellings of one word would. The query side hashes the same way.
 */
export function termIndex(term: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    hash ^= term.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The document-side `bm25` sparse vector of a chunk, mirroring the SQLite store's FTS5 columns and
 * `bm25()` (https://sqlite.org/fts5.html#the_bm25_function): a term's frequency is the weighted sum of
 * its counts in the symbol (x3), path (x2) and body (x1; {@link lexicalBody}, comments twice) columns ({@link BM25_WEIGHTS}); the document
 * length `dl` is the unweighted count of all its terms; each value is
 * `f * (k1 + 1) / (f + k1 * (1 - b + b * dl / avgdl))`. Qdrant's `modifier: idf` multiplies in the
 * inverse document frequency at query time, `ln(1 + (N - n + 0.5) / (n + 0.5))`, so score = BM25.
 * Indices are sorted ascending. A chunk without terms gives an empty vector.
 */
export function chunkSparseVector(chunk: Chunk, avgTerms = BM25_AVG_TERMS): SparseVector {
  const columns: [string[], number][] = [
    [codeTerms([chunk.symbol ?? '', ...chunk.scopes].join(' ')), BM25_WEIGHTS.symbol],
    [codeTerms(chunk.path), BM25_WEIGHTS.path],
    [codeTerms(lexicalBody(chunk)), BM25_WEIGHTS.body],
  ];
  const freq = new Map<number, number>();
  let length = 0;
  for (const [terms, weight] of columns) {
    length += terms.length;
    for (const term of terms) {
      const index = termIndex(term);
      freq.set(index, (freq.get(index) ?? 0) + weight);
    }
  }
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgTerms);
  const indices = [...freq.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => { const f = freq.get(i) ?? 0; return (f * (BM25_K1 + 1)) / (f + norm); }) };
}

/**
 * The query-side sparse vector: weight 1 for each of the query's {@link queryTerms} (so a document's
 * score is the sum over matched terms of idf x saturated tf, as in BM25). Empty for a query without terms.
 */
export function querySparseVector(query: string): SparseVector {
  const indices = [...new Set(queryTerms(query).map(termIndex))].sort((a, b) => a - b);
  return { indices, values: indices.map(() => 1) };
}
