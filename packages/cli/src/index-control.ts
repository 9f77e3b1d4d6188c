import { existsSync } from 'node:fs';
import { createHeadMoveCheck, createHooksInstalledCheck, currentCommit, indexLockHolder, liveWatcher, pathQueueLength, unknownPaths, type IndexReport } from '@monorag/indexer';
import { SKIPPED_LISTED, type IndexControl, type IndexRunSummary } from '@monorag/mcp';
import { readIndexFreshness, type IndexFreshness } from '@monorag/retriever';
import { ErrorCode, MonoragError } from '@monorag/shared';
import type { ChunkStore } from '@monorag/store';
import type { ProjectContext } from './project-context.js';
import { readWorkTreeProbe } from './work-tree-pending.js';
import type { QueueBacklogReader } from './queue-backlog.js';
import type { WatchedProject } from './watch-project.js';

/** Index state and updates for `monorag serve`, plus the freshness every tool result carries. */
export interface ServeIndexControl extends IndexControl {
  /**
   * The index's freshness. Runs in progress and queued paths are taken when it is called, the rest (HEAD,
   * the store's record) once read: called before a search, its answer is never fresher than the index the search reads.
   */
  readFreshness(): Promise<IndexFreshness>;
}

/** Options of {@link createIndexControl}; `R` is what the project's runs report (see `WatchRunner`). */
export interface IndexControlOptions<R = IndexReport> {
  context: ProjectContext;
  /** The store the server reads. */
  store: ChunkStore;
  /** The file-job queue's backlog, counted in the freshness in queue mode (see `OpenIndex.backlog`). */
  backlog: QueueBacklogReader;
  /** The watched project; with --no-watch it is created on the first sync_index (no file watcher then). */
  watched: () => Promise<WatchedProject<R>>;
  /** The watched project if it exists yet (never creates one). */
  current: () => WatchedProject<R> | undefined;
  /** A run's report as the MCP tools give it (`lastRun`, `sync_index`'s `run`): {@link indexRunSummary} for in-process runs. */
  summarise: (report: R) => IndexRunSummary | Promise<IndexRunSummary>;
  /** Aborted when the server shuts down: a `sync_index` waiting for its run then fails with `SHUTTING_DOWN`, and new ones are refused. */
  stopping?: AbortSignal;
}

/** The error of a `sync_index` cut short by the server's shutdown. */
function shuttingDown(root: string): MonoragError {
  return new MonoragError(
    ErrorCode.SHUTTING_DOWN,
    'The server is shutting down, so the index update was stopped before it finished (the files indexed so far are kept). ' +
      `Call sync_index again once the server is back, or run \`monorag index ${root}\`.`,
  );
}

/** `promise`, or a rejection with {@link shuttingDown} as soon as `stopping` is aborted, whichever comes first. */
function untilStopped<T>(promise: Promise<T>, stopping: AbortSignal | undefined, root: string): Promise<T> {
  if (!stopping) return promise;
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      if (stopping.aborted) return reject(shuttingDown(root));
      stopping.addEventListener('abort', () => reject(shuttingDown(root)), { once: true });
    }),
  ]);
}

/** The MCP summary of an in-process run's report. */
export function indexRunSummary(report: IndexReport): IndexRunSummary {
  const { mode, files, added, changed, deleted, unchanged, chunksEmbedded, moved, cachePruned, durationMs } = report;
  const summary: IndexRunSummary = { mode, files, added, changed, deleted, unchanged, chunksEmbedded, moved, cachePruned, durationMs };
  if (report.skipped.length > 0) {
    summary.skipped = {
      total: report.skipped.length,
      files: report.skipped.slice(0, SKIPPED_LISTED).map(({ path, reason, detail, removed }) => ({
        path, reason, ...(detail !== undefined ? { detail } : {}), ...(removed ? { removed: true } : {}),
      })),
    };
  }
  return summary;
}

/** Creates the {@link ServeIndexControl} of a served project. */
export function createIndexControl<R = IndexReport>({ context, store, backlog, watched, current, summarise, stopping }: IndexControlOptions<R>): ServeIndexControl {
  const headMoveCheck = createHeadMoveCheck();
  const hooksInstalled = createHooksInstalledCheck(context.root);
  const readFreshness = async (): Promise<IndexFreshness> => {
    const w = current();
    const watching = w?.watcher() !== undefined;
    // Runs and queued paths as they stand when asked, before anything is awaited: a run that ends while
    // HEAD is read must not make results read from the index before it (a search's) look fresh.
    const pendingChanges = w ? w.pendingChanges() : pathQueueLength(context.dataDir);
    const indexing = w ? w.indexing() : indexLockHolder(context.dataDir) !== null;
    const queued = await backlog.read(!watching);
    // A file watcher counts new and edited files among its pending paths; without one, ask git (outside git, walk the tree) for untracked
    // and edited files that nothing queued (a queued file job is counted by the queue).
    const headCommit = await currentCommit(context.root);
    const workTree = await readWorkTreeProbe(context, store, headCommit, { queued: queued?.queuedPaths, countChanges: !watching, headMoveCheck });
    return readIndexFreshness(store, {
      headCommit, headMoveIndexed: workTree.headMoveIndexed, pendingChanges, unqueuedChanges: workTree.unqueuedChanges, indexing, queue: queued?.backlog,
      hooksInstalled: headCommit === null ? undefined : await hooksInstalled(),
      // The server's clients can index the changes themselves (trial: the warning named only a git hook and the shell's `monorag index`).
      indexAdvice: 'the `sync_index` tool or `monorag index`',
      // Moved away or deleted under the server (a trial: only stderr said so).
      projectGone: !existsSync(context.root),
      // Without a watcher here (--no-watch), another process's (`monorag watch`) may pick the changes up.
      watcherPid: watching ? null : liveWatcher(context.dataDir, context.root),
    });
  };
  return {
    readFreshness,
    async status() {
      const w = current();
      const s = w?.scheduler.status();
      const watcher = w?.watcher();
      return {
        index: await readFreshness(),
        watching: watcher ? watcher.mode() : 'off',
        watchedDirectories: watcher ? watcher.watchedDirectories() : 0,
        lastRun: s?.lastReport ? await summarise(s.lastReport) : null,
        lastError: s?.lastError ?? null,
      };
    },
    async sync({ paths, wait }) {
      if (stopping?.aborted) throw shuttingDown(context.root);
      const w = await watched();
      if (!wait) {
        w.scheduler.enqueue(paths);
        return null;
      }
      return summarise(await untilStopped(w.scheduler.sync(paths), stopping, context.root));
    },
    async unknownPaths(paths) {
      // The same check as `monorag index --paths`.
      return unknownPaths(context.root, paths, await store.listFiles());
    },
  };
}
