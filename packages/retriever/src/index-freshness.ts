import type { ChunkStore } from '@monorag/store';

/** How fresh the index is; part of every search response. */
export interface IndexFreshness {
  /** ISO 8601 time of the last completed index run, or null. */
  indexedAt: string | null;
  /** Git commit the index reflects, or null outside git. */
  indexedCommit: string | null;
  /** Files in the index. */
  files: number;
  /** Chunks in the index. */
  chunks: number;
}

/** Reads the freshness metadata the indexer writes after each run. */
export async function readIndexFreshness(store: ChunkStore): Promise<IndexFreshness> {
  const [at, commit, stats] = await Promise.all([store.getMeta('indexedAt'), store.getMeta('indexedCommit'), store.stats()]);
  const ms = at ? Number(at) : NaN;
  return {
    indexedAt: Number.isFinite(ms) ? new Date(ms).toISOString() : null,
    indexedCommit: commit ? commit : null,
    files: stats.files,
    chunks: stats.chunks,
  };
}
