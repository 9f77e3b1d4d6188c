import type { SearchFilter } from '../chunk-store.js';
import { prefixRange } from './prefix-range.js';

/** SQL conditions (joined with AND, each prefixed by ` AND `) and their positional parameters. */
export interface FilterClause {
  sql: string;
  params: string[];
}

/**
 * Translates a {@link SearchFilter} into conditions on the `path` and `language` columns of `table`
 * (an alias of the chunks table; both columns are indexed). Empty filters give an empty clause.
 * Path prefixes follow {@link prefixRange}.
 */
export function filterClause(table: string, filter: SearchFilter | undefined): FilterClause {
  let sql = '';
  const params: string[] = [];
  const range = filter?.pathPrefix ? prefixRange(filter.pathPrefix) : undefined;
  if (range) {
    sql += ` AND ${table}.path >= ? AND ${table}.path < ?`;
    params.push(range.low, range.high);
  }
  if (filter?.language !== undefined) {
    sql += ` AND ${table}.language = ?`;
    params.push(filter.language);
  }
  return { sql, params };
}
