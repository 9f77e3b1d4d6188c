import type Database from 'better-sqlite3';
import type { Logger } from '@monorag/shared';
import { TERM_ANALYZER } from '../code-terms.js';
import { rowToChunk, chunkColumns, type ChunkRow } from './chunk-row.js';
import { ftsColumns } from './fts-text.js';

/** Meta key holding the {@link TERM_ANALYZER} the FTS rows were written with. */
export const FTS_ANALYZER_KEY = 'fts.analyzer';

/**
 * Makes the FTS rows match the current {@link TERM_ANALYZER}: when the file records another analyzer
 * (or none, and holds chunks), every FTS row is rebuilt from the stored chunks in one transaction
 * (a few seconds for ~10,000 chunks), so a new term analysis never needs a re-index or a model call.
 * @returns the number of chunks re-analysed (0 when the rows were current).
 */
export function ensureFtsAnalyzer(db: Database.Database, file: string, logger?: Logger): number {
  const recorded = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(FTS_ANALYZER_KEY) as string | undefined;
  if (recorded === TERM_ANALYZER) return 0;
  return db.transaction(() => {
    // Re-read under the write lock: another process may have rebuilt meanwhile.
    if ((db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(FTS_ANALYZER_KEY) as string | undefined) === TERM_ANALYZER) return 0;
    const rows = db.prepare(`SELECT c.rowid AS rowid, ${chunkColumns('c')} FROM chunks c`).all() as (ChunkRow & { rowid: number })[];
    if (rows.length > 0) {
      db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all')").run();
      const insert = db.prepare('INSERT INTO chunks_fts (rowid, symbol, path, body) VALUES (?, ?, ?, ?)');
      for (const row of rows) {
        const fts = ftsColumns(rowToChunk(row));
        insert.run(row.rowid, fts.symbol, fts.path, fts.body);
      }
      logger?.info({ file, chunks: rows.length, from: recorded ?? 'unrecorded', to: TERM_ANALYZER }, 'lexical index rebuilt for a new term analyzer');
    }
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(FTS_ANALYZER_KEY, TERM_ANALYZER);
    return rows.length;
  }).immediate();
}
