import type { ChunkStore } from '@monorag/store';

/** How fresh the index is; part of every search response and every MCP tool result. */
export interface IndexFreshness {
  /** ISO 8601 time of the last completed index run, or null. */
  indexedAt: string | null;
  /** Git commit the index reflects (HEAD when the last run started), or null outside git. */
  indexedCommit: string | null;
  /** Files in the index. */
  files: number;
  /** Chunks in the index. */
  chunks: number;
  /** HEAD of the work tree now, when the caller checked it; null when unknown or outside git. */
  headCommit: string | null;
  /** Changed paths (and queued git operations) waiting to be indexed, as far as this process knows. */
  pendingChanges: number;
  /** An index run is in progress (in this or another process). */
  indexing: boolean;
  /** True when the tree has moved on from the index: pending changes, a run in progress, or HEAD != indexedCommit. */
  stale: boolean;
  /** Why the index may be stale, for people and models; null when it is not. */
  warning: string | null;
}

/** What the caller knows beyond the store: the work tree's HEAD and work waiting to be indexed. */
export interface FreshnessProbe {
  headCommit?: string | null;
  pendingChanges?: number;
  indexing?: boolean;
}

/**
 * Reads the freshness metadata the indexer writes after each run, and judges staleness from `probe`
 * (without a probe nothing is known about the tree, and the index is not called stale). The warning
 * names each reason once; an index never built gives that reason alone (plus a run in progress).
 */
export async function readIndexFreshness(store: ChunkStore, probe: FreshnessProbe = {}): Promise<IndexFreshness> {
  const [at, commit, stats] = await Promise.all([store.getMeta('indexedAt'), store.getMeta('indexedCommit'), store.stats()]);
  const ms = at ? Number(at) : NaN;
  const indexedAt = Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  const indexedCommit = commit ? commit : null;
  const headCommit = probe.headCommit ?? null;
  const pendingChanges = probe.pendingChanges ?? 0;
  const indexing = probe.indexing ?? false;
  const reasons: string[] = [];
  // An index never built is behind on everything: HEAD and changed paths would only restate that.
  if (indexedAt === null) reasons.push('the index has not been built yet');
  else {
    if (headCommit !== null && headCommit !== indexedCommit) {
      reasons.push(`HEAD is ${headCommit.slice(0, 12)} but the index reflects ${indexedCommit ? indexedCommit.slice(0, 12) : 'no commit'}`);
    }
    if (pendingChanges > 0) reasons.push(`${pendingChanges} changed path(s) are waiting to be indexed`);
  }
  if (indexing) reasons.push('an index update is in progress');
  const stale = reasons.length > 0;
  return {
    indexedAt, indexedCommit, files: stats.files, chunks: stats.chunks, headCommit, pendingChanges, indexing, stale,
    warning: stale ? `Results may be out of date: ${reasons.join('; ')}.` : null,
  };
}
