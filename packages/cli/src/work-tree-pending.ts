import { countWorkTreeChanges, createIgnoreFilter, headMoveIndexed, readHeadDifferences, readSkippedFiles, type HeadMoveCheck } from '@monorag/indexer';
import type { ChunkStore } from '@monorag/store';
import { dataDirIgnorePattern, type ProjectContext } from './project-context.js';

/** What the work tree says about the index's freshness beyond its metadata (see `FreshnessProbe`). */
export interface WorkTreeProbe {
  /** Changed files nothing has queued (0 when not counted). */
  unqueuedChanges: number;
  /** HEAD differs from the indexed commit only by content the index holds. */
  headMoveIndexed: boolean;
}

/**
 * Reads the work tree for the freshness of a project, with one read of its ignore rules and manifest:
 * `unqueuedChanges`, the untracked, uncommitted-edited or deleted (tracked or not), or put back to HEAD's
 * version, non-ignored files changed since the store's last index run (`countWorkTreeChanges`; a file a
 * run left out on purpose, as binary or too large, counts only when changed since that run looked at it;
 * outside git the tree is walked as an index run walks it, one stat per file), for commands that have no
 * file watcher (`countChanges` false: 0, not counted); paths in `queued` (file jobs waiting in the team
 * stack's queue) are left out, being queued, not pending unnoticed. And `headMoveIndexed`, whether HEAD
 * (`headCommit`, `currentCommit` as the caller reads it for the freshness it reports) differs from the
 * commit the index reflects only by content the index already holds (`headMoveIndexed`); false when HEAD
 * is unknown or is that commit, or the index reflects no commit. A long-lived reader passes its own
 * `headMoveCheck` (`createHeadMoveCheck`), which remembers the commits' difference and the files' hashes
 * between reads; without one the check starts afresh.
 */
export async function readWorkTreeProbe(
  context: ProjectContext,
  store: ChunkStore,
  headCommit: string | null,
  { queued, countChanges = true, headMoveCheck = headMoveIndexed }: { queued?: ReadonlySet<string>; countChanges?: boolean; headMoveCheck?: HeadMoveCheck } = {},
): Promise<WorkTreeProbe> {
  const at = Number((await store.getMeta('indexedAt')) ?? NaN);
  const indexedCommit = (await store.getMeta('indexedCommit')) || null;
  const moved = headCommit !== null && indexedCommit !== null && headCommit !== indexedCommit;
  // A watching server with HEAD where the index left it needs neither the rules nor the manifest.
  if (!countChanges && !moved) return { unqueuedChanges: 0, headMoveIndexed: false };
  const pattern = dataDirIgnorePattern(context);
  const filter = createIgnoreFilter({ root: context.root, extraIgnores: pattern ? [pattern] : [] });
  const manifest = new Map((await store.listFiles()).map((file) => [file.path, file]));
  const maxFileBytes = context.config.index.maxFileBytes;
  let unqueuedChanges = 0;
  if (countChanges) {
    const skipped = await readSkippedFiles(store);
    unqueuedChanges = await countWorkTreeChanges({
      root: context.root,
      maxFileBytes,
      sinceMs: Number.isFinite(at) && at > 0 ? at : null,
      filter,
      isIndexed: async (rel) => manifest.has(rel),
      indexedAtOf: async (rel) => manifest.get(rel)?.indexedAt,
      skippedAtOf: async (rel) => skipped.get(rel),
      indexedPaths: async () => [...manifest.keys()],
      headDifferences: { indexedCommit, headCommit, record: () => readHeadDifferences(store) },
      exclude: queued,
    });
  }
  const headMoved = moved
    ? await headMoveCheck({ root: context.root, indexedCommit, headCommit, filter, maxFileBytes, contentHashOf: async (rel) => manifest.get(rel)?.contentHash })
    : false;
  return { unqueuedChanges, headMoveIndexed: headMoved };
}
