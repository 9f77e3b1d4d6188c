import type Database from 'better-sqlite3';
import type { ScoredChunk } from '@monorag/shared';
import type { QueryOptions } from '../chunk-store.js';
import { chunkColumns, rowToChunk, type ChunkRow } from './chunk-row.js';
import { filterClause } from './filter-clause.js';
import { ftsMatchExpression } from './fts-text.js';

/**
 * Column weights passed to FTS5 `bm25(chunks_fts, symbol, path, body)`: a term in the symbol name or
 * its scopes counts three times a term in the body, one in the path twice. Starting values, to be
 * tuned with the eval set.
 */
export const BM25_WEIGHTS = { symbol: 3.0, path: 2.0, body: 1.0 } as const;

/**
 * BM25 search over the FTS5 table. The query is the OR of its quoted query terms; filters apply to
 * the joined chunk rows before the limit, so results are exact. Score is `-bm25(...)`: FTS5's
 * `bm25()` returns the Okapi BM25 score negated (k1 = 1.2, b = 0.75, hard-coded in FTS5; IDF
 * `log((N - n + 0.5) / (n + 0.5))`, floored at 1e-6; see https://sqlite.org/fts5.html#the_bm25_function),
 * so the score here is positive and higher is better. Ties are broken by path and start line.
 * Returns [] when the query has no terms or the limit is 0.
 */
export function searchLexicalRows(db: Database.Database, query: string, { limit, filter }: QueryOptions): ScoredChunk[] {
  const match = ftsMatchExpression(query);
  if (match === undefined || limit <= 0) return [];
  const where = filterClause('c', filter);
  const { symbol, path, body } = BM25_WEIGHTS;
  const rows = db
    .prepare(
      `SELECT ${chunkColumns('c')}, bm25(chunks_fts, ${symbol}, ${path}, ${body}) AS rank
       FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
       WHERE chunks_fts MATCH ?${where.sql}
       ORDER BY rank, c.path, c.start_line
       LIMIT ?`,
    )
    .all(match, ...where.params, limit) as (ChunkRow & { rank: number })[];
  return rows.map((row) => ({ chunk: rowToChunk(row), score: -row.rank }));
}
