import type { ChunkStore } from '@monorag/store';
import { inodeOf } from './inode-of.js';
import type { ProjectContext } from './project-context.js';
import { createSwitchableStore } from './switchable-store.js';

/** What {@link followIndexFile} returns. */
export interface FollowedStore<S extends ChunkStore = ChunkStore> {
  /** The stable handle: every call goes to the store open now. */
  readonly store: S;
  /**
   * Reopens the index file when it is no longer the one open: replaced by a rebuild (a new inode), or,
   * with `reopenMissing`, deleted (`jobs enqueue --rebuild`). Call it before each unit of work; calls
   * made while a reopen runs wait for it. Resolves true when it reopened.
   * @throws the store's errors from opening the file
   */
  follow(): Promise<boolean>;
}

/** Options of {@link followIndexFile}. */
export interface FollowOptions<S extends ChunkStore> {
  /** Opens the project's index file anew (a reader adopts the stored identity, a writer gives its own, creating a missing file). */
  open: () => Promise<S>;
  /**
   * Whether a missing index file is reopened (a writer, which then creates it, so its writes are not
   * lost in the unlinked file) or left as it is (a reader, which must not create an index); default false.
   */
  reopenMissing?: boolean;
}

/**
 * Wraps the store a long-lived process opened (a server's searches, a queue worker's jobs) so that it
 * follows the project's SQLite index file when another process replaces or deletes it, instead of
 * reading or writing on in the unlinked file. Qdrant collections need no following: `follow` does nothing.
 */
export function followIndexFile<S extends ChunkStore>(context: ProjectContext, opened: S, { open, reopenMissing = false }: FollowOptions<S>): FollowedStore<S> {
  const handle = createSwitchableStore<S>(opened);
  if (context.config.store.kind !== 'sqlite') return { store: handle.store, follow: async () => false };
  let inode = inodeOf(context.storeFile);
  let reopening: Promise<void> | undefined;
  const reopen = async (): Promise<void> => {
    const previous = handle.current();
    handle.switchTo(await open());
    inode = inodeOf(context.storeFile);
    await previous.close();
    context.logger.info({ file: context.storeFile }, 'the index file was replaced or removed by another process; reopened it');
  };
  return {
    store: handle.store,
    async follow() {
      if (reopening) {
        await reopening;
        return true;
      }
      const now = inodeOf(context.storeFile);
      if (now === inode || (now === undefined && !reopenMissing)) return false;
      reopening = reopen();
      try {
        await reopening;
      } finally {
        reopening = undefined;
      }
      return true;
    },
  };
}
