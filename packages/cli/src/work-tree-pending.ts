import { countWorkTreeChanges, createIgnoreFilter, headMoveIndexed, readHeadDifferences, readSkippedFiles } from '@monorag/indexer';
import type { ChunkStore } from '@monorag/store';
import { dataDirIgnorePattern, type ProjectContext } from './project-context.js';

/**
 * Untracked, uncommitted-edited or deleted (tracked or not), or put back to HEAD's version, non-ignored files of the project changed since the store's last index run
 * (`countWorkTreeChanges` with the project's ignore rules, the data directory included; a file a run left out on
 * purpose, as binary or too large, counts only when changed since that run looked at it), for the
 * freshness of commands that have no file watcher. Paths in `queued` (file jobs waiting in the team
 * stack's queue) are left out: they are queued, not pending unnoticed. `headCommit` is HEAD now
 * (`currentCommit`), which the caller reads for the freshness it reports. The index's manifest is read
 * once and answers every question about the files it holds. Outside git the tree is walked as an index
 * run walks it (one stat per file) to find the same changes.
 */
export async function countWorkTreePending(context: ProjectContext, store: ChunkStore, headCommit: string | null, queued?: ReadonlySet<string>): Promise<number> {
  const at = Number((await store.getMeta('indexedAt')) ?? NaN);
  const pattern = dataDirIgnorePattern(context);
  const filter = createIgnoreFilter({ root: context.root, extraIgnores: pattern ? [pattern] : [] });
  const manifest = new Map((await store.listFiles()).map((file) => [file.path, file]));
  const skipped = await readSkippedFiles(store);
  return countWorkTreeChanges({
    root: context.root,
    maxFileBytes: context.config.index.maxFileBytes,
    sinceMs: Number.isFinite(at) && at > 0 ? at : null,
    filter,
    isIndexed: async (rel) => manifest.has(rel),
    indexedAtOf: async (rel) => manifest.get(rel)?.indexedAt,
    skippedAtOf: async (rel) => skipped.get(rel),
    indexedPaths: async () => [...manifest.keys()],
    headDifferences: { indexedCommit: (await store.getMeta('indexedCommit')) || null, headCommit, record: () => readHeadDifferences(store) },
    exclude: queued,
  });
}

/**
 * Whether HEAD (`headCommit`, read by the caller) differs from the commit the index reflects only by
 * content the index already holds (`headMoveIndexed` with the project's ignore rules and size limit);
 * false when HEAD is unknown or is that commit (nothing to excuse), or the index reflects no commit.
 */
export async function headMoveIndexedFor(context: ProjectContext, store: ChunkStore, headCommit: string | null): Promise<boolean> {
  const indexedCommit = (await store.getMeta('indexedCommit')) || null;
  if (headCommit === null || indexedCommit === null || headCommit === indexedCommit) return false;
  const pattern = dataDirIgnorePattern(context);
  return headMoveIndexed({
    root: context.root,
    indexedCommit,
    headCommit,
    filter: createIgnoreFilter({ root: context.root, extraIgnores: pattern ? [pattern] : [] }),
    maxFileBytes: context.config.index.maxFileBytes,
    contentHashOf: async (rel) => (await store.getFile(rel))?.contentHash,
  });
}
