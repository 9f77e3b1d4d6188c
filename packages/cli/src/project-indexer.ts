import { existsSync } from 'node:fs';
import {
  acquireIndexLock, createIgnoreFilter, createIndexChunker, indexProject, isIgnoreRulesFile, readPathQueue,
  type IgnoreFilter, type IndexProgress, type IndexReport,
} from '@monorag/indexer';
import type { Embedder } from '@monorag/embedder-client';
import { ErrorCode, MonoragError, errorMessage } from '@monorag/shared';
import { deleteStoreFiles, openSqliteStore, replaceStoreFile, type SqliteStore } from '@monorag/store';
import { createProjectEmbedder } from './embedder-factory.js';
import type { ProjectContext } from './project-context.js';
import { prepareDataDir } from './prepare-data-dir.js';
import { createSwitchableStore } from './switchable-store.js';
import { inodeOf } from './inode-of.js';
import { checkIndexFileOwner, recordIndexOwner } from './index-owner.js';

/** A project's index opened for writing, with the pieces a watcher shares. */
export interface ProjectIndexer {
  readonly store: SqliteStore;
  /** The embedder the runs use (a watcher checks its health during an outage, see `embedderOutageProbe`). */
  readonly embedder: Embedder;
  /** The ignore rules the runs (and a watcher) use. */
  filter: IgnoreFilter;
  /**
   * One index run under the project's cross-process lock: `paths` (repo-relative) or the whole tree
   * when undefined, plus whatever git hooks queued in the data directory meanwhile.
   * @throws MonoragError `STORE_FAILED` when another process held the lock for `lockWaitMs`;
   *   the errors of {@link indexProject}.
   */
  run(paths?: readonly string[], onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<IndexReport>;
  /**
   * Points {@link store} at the index file anew when another process has replaced it (a CLI
   * `index --rebuild` swapped in while this process serves), so searches answer from the new file
   * at once rather than after this process's next run. Does nothing during a run of this process
   * (which holds the lock, so no swap can happen) or while its own rebuild is pending.
   * @returns whether the file was reopened.
   */
  follow(): Promise<boolean>;
  /**
   * Whether the index file this process has open was deleted by another hand (`rm -rf .monorag`):
   * searches still read the unlinked file, and the next run builds a new one from the whole tree.
   */
  indexMissing(): boolean;
  /**
   * For a process about to exit in the middle of a run (Ctrl-C): deletes an unfinished rebuild's file
   * and releases the locks this process holds, synchronously. The index file needs nothing: every file
   * is written in its own transaction, and SQLite recovers the rest on the next open.
   */
  abandon(): void;
  close(): Promise<void>;
}

/** Options of {@link openProjectIndexer}. */
export interface ProjectIndexerOptions {
  /**
   * Build the index anew: into `<index file>.rebuild`, which replaces the index file only when the
   * first run has finished, so searches keep the old index meanwhile and an interrupted rebuild loses nothing.
   */
  rebuild?: boolean;
  /** How long a run waits for another process's lock, in ms; default 10 minutes. */
  lockWaitMs?: number;
  /**
   * Called when a run starts waiting for another process's lock: with that process's pid (null when not
   * known yet) and how long the run will wait at most, in ms (`lockWaitMs`).
   */
  onLockWait?: (holderPid: number | null, waitMs: number) => void;
}

/**
 * Opens (creating if needed) the project's index for writing: the embedder (connected now, to learn
 * the model's identity), the chunker and the SQLite store, and adds the data directory to `.git/info/exclude`.
 * Each run records the project root in the index (see `recordIndexOwner`).
 * @throws MonoragError `INVALID_ARGUMENT` when the index in the data directory belongs to another project,
 *   `INDEX_IDENTITY_MISMATCH`, `EMBEDDER_UNAVAILABLE`, `STORE_FAILED`.
 */
export async function openProjectIndexer(
  context: ProjectContext,
  { rebuild = false, lockWaitMs = 600_000, onLockWait }: ProjectIndexerOptions = {},
): Promise<ProjectIndexer> {
  const ignorePattern = await prepareDataDir(context);
  const extraIgnores = ignorePattern ? [ignorePattern] : [];
  const embedder = createProjectEmbedder(context);
  const info = await embedder.info();
  const chunker = await createIndexChunker(embedder, info, context.logger);
  const identity = { model: info.model, dim: info.dim, chunkerVersion: chunker.version };
  const rebuildFile = `${context.storeFile}.rebuild`;
  /** Time the lock of the next run took to get, in ms, when another process held it (reported as `lockWaitMs`). */
  let waitedMs: number | undefined;
  const acquire = async () => {
    const asked = Date.now();
    let waited = false;
    const lock = await acquireIndexLock({
      dataDir: context.dataDir, waitMs: lockWaitMs, onWait: (pid) => {
        waited = true;
        onLockWait?.(pid, lockWaitMs);
      },
    });
    waitedMs = waited ? Date.now() - asked : undefined;
    if (!lock) {
      throw new MonoragError(
        ErrorCode.STORE_FAILED,
        `Another monorag process has been indexing ${context.root} for over ${Math.round(lockWaitMs / 1000)} s (lock ${context.dataDir}/index.lock). Wait for it or stop it.`,
      );
    }
    return lock;
  };
  // A rebuild holds the lock from here until its first run has swapped the new file in, so two
  // rebuilds (or a rebuild and a run) never share or delete each other's `.rebuild` file.
  let rebuildLock = rebuild ? await acquire() : undefined;
  if (rebuild) deleteStoreFiles(rebuildFile);
  let store: SqliteStore;
  try {
    // Another project's index in this data directory is refused before anything is written or replaced
    // (and before its identity is compared: a mismatch there would suggest a rebuild that replaces it).
    checkIndexFileOwner(context);
    store = await openSqliteStore({ file: rebuild ? rebuildFile : context.storeFile, identity, logger: context.logger });
    // A rebuild (often for a new chunker version) embeds only chunk texts the old index never saw.
    // The cache is only a saving: a damaged or unreadable old index (often the reason to rebuild) is built without it.
    if (rebuild && existsSync(context.storeFile)) {
      try {
        const copied = await store.importEmbeddingCache(context.storeFile);
        context.logger.info({ copied, from: context.storeFile }, 'embedding cache carried over to the rebuild');
      } catch (error) {
        // The cause, not the store's message: that one says to run `--rebuild`, which is what is running.
        const cause = (error as { cause?: unknown }).cause ?? error;
        context.logger.warn({ from: context.storeFile, err: errorMessage(cause) }, 'the old index could not be read; the rebuild embeds every chunk anew');
      }
    }
  } catch (error) {
    if (rebuild) deleteStoreFiles(rebuildFile);
    rebuildLock?.release();
    throw error;
  }
  const handle = createSwitchableStore(store);
  /** Inode of the index file this process has open (undefined while a rebuild is pending). */
  let openedInode = rebuild ? undefined : inodeOf(context.storeFile);
  let swapPending = rebuild;
  let running = false;
  /** The lock of the run in progress, for {@link ProjectIndexer.abandon}. */
  let runLock: { release(): void } | undefined;
  let reopening: Promise<void> | undefined;
  /** Closes the open store and opens the index file anew, pointing the shared handle at it (one reopen at a time). */
  const reopen = async (): Promise<void> => {
    if (reopening) return reopening;
    reopening = (async () => {
      // The new file is opened before the old one is closed: when it cannot be opened (its directory is
      // gone for a moment: the project moved away) the open store keeps serving, not a closed one for good.
      const next = await openSqliteStore({ file: context.storeFile, identity, logger: context.logger });
      const previous = store;
      store = next;
      handle.switchTo(store);
      openedInode = inodeOf(context.storeFile);
      await previous.close();
    })();
    try {
      await reopening;
    } finally {
      reopening = undefined;
    }
  };
  /** Whether another process replaced the index file this process has open (another file is there now). */
  const replaced = (): boolean => {
    if (swapPending || openedInode === undefined) return false;
    const now = inodeOf(context.storeFile);
    return now !== undefined && now !== openedInode;
  };
  /**
   * Whether the index file this process has open was deleted (`rm -rf .monorag`): searches go on reading the
   * unlinked file, and the next run builds a new one of the whole tree.
   */
  const deleted = (): boolean => !swapPending && openedInode !== undefined && inodeOf(context.storeFile) === undefined;
  /** Replaces the index file with the finished rebuild (under the index lock). */
  const swapIn = async (): Promise<void> => {
    await store.close();
    replaceStoreFile(rebuildFile, context.storeFile);
    await reopen();
    swapPending = false;
  };
  const filter = createIgnoreFilter({ root: context.root, extraIgnores });

  return {
    get store() {
      return handle.store;
    },
    embedder,
    filter,
    async run(paths, onProgress, signal) {
      // The project folder moved away or deleted under a serving process: nothing to index, and nothing
      // of it (the data directory) may be made anew at its old path.
      if (!existsSync(context.root)) {
        throw new MonoragError(
          ErrorCode.NOT_FOUND,
          `The project folder ${context.root} is gone (moved or deleted); nothing was indexed. Put it back, or run monorag on its new path.`,
        );
      }
      // A data directory deleted under a serving process: made anew (with its git exclude entry) for the lock and the new index.
      if (!existsSync(context.dataDir)) await prepareDataDir(context);
      const lock = rebuildLock ?? (await acquire());
      rebuildLock = undefined;
      runLock = lock;
      running = true;
      try {
        await reopening;
        // Under the lock no rebuild is running: a `.rebuild` file here is what a killed one left.
        if (!swapPending && existsSync(rebuildFile)) deleteStoreFiles(rebuildFile);
        // Another process swapped a rebuilt index in: follow it, or this run would write into the orphaned file.
        if (replaced()) {
          await reopen();
          context.logger.info({ file: context.storeFile }, 'the index file was replaced by a rebuild; reopened it');
        }
        // The index file was deleted: a new one, which this run fills with the whole tree (a run of some paths would leave it holding only those).
        const fresh = deleted();
        if (fresh) {
          await reopen();
          context.logger.warn({ file: context.storeFile }, 'the index file was deleted; building a new index of the whole tree');
        }
        const queued = readPathQueue(context.dataDir);
        const all = paths === undefined || queued.full || fresh ? undefined : [...paths, ...queued.paths];
        // A full run reads only what changed: check the whole file first, so damage elsewhere is not reported as success.
        if (all === undefined && !swapPending) await store.checkIntegrity();
        if (all === undefined || all.some(isIgnoreRulesFile)) filter.reset();
        await recordIndexOwner(context, store);
        const report = await indexProject({
          root: context.root, store, chunker, embedder, maxFileBytes: context.config.index.maxFileBytes,
          cacheRetentionMs: context.config.index.cacheRetentionDays * 86_400_000, redactSecrets: context.config.index.redactSecrets,
          extraIgnores, filter, paths: all, logger: context.logger, onProgress, signal,
        });
        queued.remove();
        if (swapPending) await swapIn();
        if (waitedMs !== undefined) report.lockWaitMs = waitedMs;
        waitedMs = undefined;
        return report;
      } finally {
        running = false;
        runLock = undefined;
        lock.release();
      }
    },
    indexMissing: () => !running && deleted(),
    abandon() {
      if (swapPending) deleteStoreFiles(rebuildFile);
      runLock?.release();
      rebuildLock?.release();
    },
    async follow() {
      await reopening;
      if (running || !replaced()) return false;
      await reopen();
      context.logger.info({ file: context.storeFile }, 'the index file was replaced by a rebuild; reopened it for searches');
      return true;
    },
    close: async () => {
      await store.close();
      // A rebuild that never finished a run leaves the old index in place.
      if (swapPending) deleteStoreFiles(rebuildFile);
      rebuildLock?.release();
      rebuildLock = undefined;
    },
  };
}
