import { existsSync } from 'node:fs';
import { checkEmbedderIdentity, type Embedder } from '@monorag/embedder-client';
import { createHeadMoveCheck, createHooksInstalledCheck, currentCommit, indexLockHolder, liveWatcher, pathQueueLength } from '@monorag/indexer';
import { createRetriever, readIndexFreshness, type IndexFreshness, type Retriever } from '@monorag/retriever';
import { openSqliteStore, type ChunkStore } from '@monorag/store';
import { createProjectEmbedder } from './embedder-factory.js';
import { checkIndexOwner } from './index-owner.js';
import { missingIndexError } from './missing-index-error.js';
import type { ProjectContext } from './project-context.js';
import { openProjectStore } from './store-factory.js';
import { followIndexFile } from './follow-index-file.js';
import { readWorkTreeProbe } from './work-tree-pending.js';
import { createQueueBacklogReader, type QueueBacklogReader } from './queue-backlog.js';

/** A project's index opened for queries. */
export interface OpenIndex {
  store: ChunkStore;
  retriever: Retriever;
  /**
   * The index's freshness against the work tree. A run in progress (the index lock) and the git hooks'
   * queued paths are taken when it is called, the rest once read: called before a search, its answer is
   * never fresher than the index the search reads (a run that ends meanwhile leaves it stale).
   */
  readFreshness: () => Promise<IndexFreshness>;
  /** The file-job queue's backlog for freshness (reads null with the in-process queue); closed by `close`. */
  backlog: QueueBacklogReader;
  close(): Promise<void>;
}

/** A store already open for the project, and how to make it follow an index file replaced meanwhile. */
export interface ExistingStore {
  store: ChunkStore;
  /** Reopens the index file when another process replaced it (see `ProjectIndexer.follow`). */
  follow(): Promise<boolean>;
}

/**
 * Opens a project's index for reading and wires the retriever. The embedder is connected on the
 * first dense query only, and checked against the index identity then. `existing` reuses a store
 * already open (e.g. the indexer's, in `serve --watch`); closing the result then closes it.
 * Every search and freshness read first follows a SQLite index file that another process replaced
 * (a CLI `index --rebuild` swapping its new file in), so a long-lived server never answers from the
 * replaced file.
 * @param options.showsWarnings the caller prints every search warning to the user (`monorag search` without
 *   `--json`): faults that are also warnings are logged at debug level, so they are said once.
 * @throws MonoragError `INDEX_NOT_FOUND` when the project has not been indexed (naming a parent directory
 *   that has an index), `INVALID_ARGUMENT` when the index in the data directory belongs to another project.
 */
export async function openRetriever(context: ProjectContext, existing?: ExistingStore, { showsWarnings = false }: { showsWarnings?: boolean } = {}): Promise<OpenIndex> {
  if (!existing && context.config.store.kind === 'sqlite' && !existsSync(context.storeFile)) throw missingIndexError(context);
  // store.kind picks SQLite (the file above) or the project's Qdrant collection (INDEX_NOT_FOUND when it has none).
  const { store, follow } = existing ?? (await openFollowedStore(context));
  let checked: Promise<Embedder> | undefined;
  const getEmbedder = (): Promise<Embedder> => {
    checked ??= (async () => {
      const embedder = createProjectEmbedder(context);
      const { model, dim } = store.identity;
      checkEmbedderIdentity(await embedder.info(), { model, dim, reindexCommand: `monorag index --rebuild ${context.root}` }, context.config.embedding.url);
      return embedder;
    })();
    checked.catch(() => {
      checked = undefined;
    });
    return checked;
  };
  const inner = createRetriever({
    store, getEmbedder, limits: context.config.search, logger: context.logger, ranking: { queryAdapter: context.config.search.queryAdapter }, faultLogLevel: showsWarnings ? 'debug' : 'warn',
  });
  const retriever: Retriever = {
    search: async (request, trace) => {
      await follow();
      return inner.search(request, trace);
    },
  };
  const backlog = createQueueBacklogReader(context);
  // Freshness judged against the work tree: HEAD, paths queued by git hooks, untracked or edited files changed since the
  // last run that nothing queued (and whether another process's watcher picks them up), a run in another process, and in
  // queue mode the file jobs and the workers to run them.
  // The run in progress and the hooks' queue are taken when asked, before anything is awaited (see `OpenIndex.readFreshness`).
  const headMoveCheck = createHeadMoveCheck();
  const hooksInstalled = createHooksInstalledCheck(context.root);
  const readFreshness = async (): Promise<IndexFreshness> => {
    const pendingChanges = pathQueueLength(context.dataDir);
    const indexing = indexLockHolder(context.dataDir) !== null;
    await follow();
    const queued = await backlog.read(true);
    const headCommit = await currentCommit(context.root);
    const workTree = await readWorkTreeProbe(context, store, headCommit, { queued: queued?.queuedPaths, headMoveCheck });
    return readIndexFreshness(store, {
      headCommit,
      headMoveIndexed: workTree.headMoveIndexed,
      pendingChanges,
      unqueuedChanges: workTree.unqueuedChanges,
      hooksInstalled: headCommit === null ? undefined : await hooksInstalled(),
      indexing,
      queue: queued?.backlog,
      // A `watch`, `serve` or `gateway` of this project picks up what is counted above: say so rather than advise a run.
      watcherPid: liveWatcher(context.dataDir, context.root),
    });
  };
  return {
    store, retriever, readFreshness, backlog,
    close: async () => {
      await backlog.close();
      await store.close();
    },
  };
}

/**
 * The project's store opened for reading. A SQLite index is wrapped so that `follow` can point it at
 * the index file anew when its inode changed (the file was replaced); Qdrant needs no following.
 */
async function openFollowedStore(context: ProjectContext): Promise<ExistingStore> {
  if (context.config.store.kind !== 'sqlite') return { store: await openProjectStore(context), follow: async () => false };
  const first = await openSqliteStore({ file: context.storeFile, logger: context.logger });
  try {
    await checkIndexOwner(context, first);
  } catch (error) {
    await first.close();
    throw error;
  }
  return followIndexFile(context, first, { open: () => openSqliteStore({ file: context.storeFile, logger: context.logger }) });
}
