import { countWorkTreeChanges, createIgnoreFilter, readHeadDifferences } from '@monorag/indexer';
import type { ChunkStore } from '@monorag/store';
import { dataDirIgnorePattern, type ProjectContext } from './project-context.js';

/**
 * Untracked, uncommitted-edited or deleted (tracked or not), or put back to HEAD's version, non-ignored files of the project changed since the store's last index run
 * (`countWorkTreeChanges` with the project's ignore rules, the data directory included), for the
 * freshness of commands that have no file watcher. Paths in `queued` (file jobs waiting in the team
 * stack's queue) are left out: they are queued, not pending unnoticed.
 */
export async function countWorkTreePending(context: ProjectContext, store: ChunkStore, queued?: ReadonlySet<string>): Promise<number> {
  const at = Number((await store.getMeta('indexedAt')) ?? NaN);
  const pattern = dataDirIgnorePattern(context);
  const filter = createIgnoreFilter({ root: context.root, extraIgnores: pattern ? [pattern] : [] });
  return countWorkTreeChanges({
    root: context.root,
    sinceMs: Number.isFinite(at) && at > 0 ? at : null,
    filter,
    isIndexed: async (rel) => (await store.getFile(rel)) !== undefined,
    indexedAtOf: async (rel) => (await store.getFile(rel))?.indexedAt,
    indexedPaths: async () => (await store.listFiles()).map((file) => file.path),
    headDifferences: { indexedCommit: (await store.getMeta('indexedCommit')) || null, record: () => readHeadDifferences(store) },
    exclude: queued,
  });
}
