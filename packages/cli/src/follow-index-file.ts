import type { IndexIdentity } from '@monorag/shared';
import type { ChunkStore } from '@monorag/store';
import { inodeOf } from './inode-of.js';
import type { ProjectContext } from './project-context.js';
import { openProjectStore } from './store-factory.js';
import { createSwitchableStore } from './switchable-store.js';

/** What {@link followIndexFile} returns. */
export interface FollowedStore {
  /** The stable handle: every call goes to the store open now. */
  readonly store: ChunkStore;
  /**
   * Reopens the index file when it is no longer the one open: replaced by a rebuild (a new inode) or
   * deleted (`jobs enqueue --rebuild`; opening creates it anew with `identity`). Call it before each unit
   * of work; calls made while a reopen runs wait for it. Resolves true when it reopened.
   * @throws the store's errors from opening the file
   */
  follow(): Promise<boolean>;
}

/**
 * Wraps the store a long-lived writer (a queue worker) opened, so that it follows the project's SQLite
 * index file when another process replaces or deletes it, instead of writing on into the unlinked file
 * while searches read the new, empty one. Qdrant collections need no following: `follow` does nothing.
 */
export function followIndexFile(context: ProjectContext, opened: ChunkStore, identity: IndexIdentity): FollowedStore {
  const handle = createSwitchableStore<ChunkStore>(opened);
  if (context.config.store.kind !== 'sqlite') return { store: handle.store, follow: async () => false };
  let inode = inodeOf(context.storeFile);
  let reopening: Promise<void> | undefined;
  const reopen = async (): Promise<void> => {
    const previous = handle.current();
    handle.switchTo(await openProjectStore(context, identity));
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
      if (now !== undefined && now === inode) return false;
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
