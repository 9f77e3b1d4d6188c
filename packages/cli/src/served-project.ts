import { resolveLanguageId } from '@monorag/chunker';
import type { IndexControl, IndexRunSummary, McpServerOptions } from '@monorag/mcp';
import { ErrorCode, errorMessage, MonoragError } from '@monorag/shared';
import { unknownPaths } from '@monorag/indexer';
import { createIndexControl, indexRunSummary } from './index-control.js';
import { openRetriever, type OpenIndex } from './open-retriever.js';
import type { ProjectContext } from './project-context.js';
import { enqueuerRunner, openProjectEnqueuer, type EnqueueRun, type ProjectEnqueuer } from './project-enqueuer.js';
import { openProjectIndexer, type ProjectIndexer } from './project-indexer.js';
import { createReadablePredicate } from './readable-predicate.js';
import { CLI_VERSION } from './version.js';
import { indexerRunner, watchProject, type WatchedProject } from './watch-project.js';

/** A project opened for serving over MCP (`monorag serve` on stdio, `monorag gateway` over HTTP). */
export interface ServedProject {
  /** What `createMcpServer` takes: the same tools on every transport. */
  mcp: McpServerOptions;
  /** The store the retriever reads (for status and health). */
  index: OpenIndex;
  /**
   * Shutdown, first step: `sync_index` calls waiting for a run fail at once with `SHUTTING_DOWN`, and new
   * ones are refused, so their answers can be sent before the sessions close.
   */
  interrupt(): void;
  /**
   * Stops the watcher and closes the stores, waiting for an index run in progress; after
   * {@link interrupt}, a run in progress is stopped instead: its lock is released (as `monorag index`
   * does on Ctrl-C: every file is written in its own transaction, so what was written stays) and the
   * run ends with the process, which must exit next.
   */
  close(): Promise<void>;
}

/** Options of {@link openServedProject}. */
export interface ServedProjectOptions {
  /**
   * Watch the tree and keep a SQLite index fresh, building a missing one first. Without, the index is
   * served as it is: a missing one is refused (`INDEX_NOT_FOUND`, naming `monorag index`), and only
   * `sync_index` updates it.
   */
  watch: boolean;
}

/**
 * Opens a project for serving. With the SQLite store (the embedded default) and `watch` set, it builds a
 * missing index and watches the tree; either way `sync_index` updates it. With `queue.kind` bullmq (the
 * team stack) this process indexes nothing: file events, the start-up run and `sync_index` plan and
 * enqueue file jobs for `monorag worker`s, which write the store it reads (see {@link openQueueServedProject}).
 * With `store.kind` `qdrant` and the in-process queue it reads the project's Qdrant collection only:
 * nothing is watched here and `sync_index` answers with how to enqueue the changes (`monorag jobs enqueue`).
 * @throws MonoragError as `openRetriever` and `openProjectIndexer` do (`INDEX_NOT_FOUND` for a Qdrant
 *   project with no collection, `EMBEDDER_UNAVAILABLE` when a missing index must be built, ...), and in
 *   queue mode as `openProjectEnqueuer` does (QUEUE_UNAVAILABLE).
 */
export async function openServedProject(context: ProjectContext, { watch }: ServedProjectOptions): Promise<ServedProject> {
  if (context.config.queue.kind === 'bullmq') return openQueueServedProject(context, { watch });
  if (context.config.store.kind === 'qdrant') {
    const index = await openRetriever(context);
    return { mcp: projectMcpOptions(context, index, queueIndexControl(context, index)), index, interrupt: () => {
      // Nothing indexes here (workers do), so no run waits.
    }, close: () => index.close() };
  }
  let indexer: ProjectIndexer | undefined;
  let watched: WatchedProject | undefined;
  let starting: Promise<WatchedProject> | undefined;
  const startWatched = (watchTree: boolean): Promise<WatchedProject> => {
    starting ??= (async () => {
      indexer = await openProjectIndexer(context);
      watched = watchProject(context, indexerRunner(indexer, context.logger), { watch: watchTree });
      return watched;
    })();
    return starting;
  };
  // The indexer creates the store, so a missing index is built by the first (full) run. Without
  // watching, openRetriever refuses a missing index (INDEX_NOT_FOUND) rather than building one.
  if (watch) await startWatched(true);
  const opened = indexer;
  const index = await openRetriever(context, opened ? { store: opened.store, follow: () => opened.follow() } : undefined);
  const stopping = new AbortController();
  const control = createIndexControl({
    context, store: index.store, backlog: index.backlog, watched: () => startWatched(false), current: () => watched, summarise: indexRunSummary, stopping: stopping.signal,
  });
  const mcp = { ...projectMcpOptions(context, index, control), readFreshness: control.readFreshness };
  return {
    mcp,
    index,
    interrupt: () => stopping.abort(),
    close: async () => {
      if (stopping.signal.aborted && watched?.scheduler.status().running) {
        context.logger.info({ root: context.root }, 'index run stopped by the shutdown; the files indexed so far are kept');
        indexer?.abandon();
        watched.close().catch((error: unknown) => context.logger.warn({ err: errorMessage(error) }, 'stopping the watcher failed'));
        return;
      }
      await watched?.close();
      await index.close();
      if (indexer && indexer.store !== index.store) await indexer.close();
    },
  };
}

/** How often a queue-mode server that started while Redis did not answer tries again, in ms. */
const QUEUE_RETRY_MS = 10_000;

/**
 * A project served in queue mode (`queue.kind` bullmq): the store `monorag worker`s write is read as it is,
 * and this process never indexes nor takes the index lock. With `watch`, the start-up run and file events
 * plan and enqueue file jobs (`openProjectEnqueuer`; a missing index is created empty, and the workers
 * fill it); without, the index must exist (`INDEX_NOT_FOUND`) and the first `sync_index` opens the
 * enqueuer. `sync_index` with `wait` returns once the jobs are on the queue, not once the workers are done.
 * When Redis does not answer at start (QUEUE_UNAVAILABLE), the index is served as it is and the watch
 * starts once Redis answers (tried every {@link QUEUE_RETRY_MS} ms); a missing index is then INDEX_NOT_FOUND.
 * @throws MonoragError as `openProjectEnqueuer` (but QUEUE_UNAVAILABLE) and `openRetriever` do.
 */
async function openQueueServedProject(context: ProjectContext, { watch }: ServedProjectOptions): Promise<ServedProject> {
  let enqueuer: ProjectEnqueuer | undefined;
  let watched: WatchedProject<EnqueueRun> | undefined;
  let starting: Promise<WatchedProject<EnqueueRun>> | undefined;
  const startWatched = (watchTree: boolean): Promise<WatchedProject<EnqueueRun>> => {
    starting ??= (async () => {
      enqueuer = await openProjectEnqueuer(context);
      watched = watchProject(context, enqueuerRunner(enqueuer), {
        watch: watchTree,
        onRun: (r) => context.logger.info({ mode: r.mode, enqueued: r.enqueued, queue: r.queue, workers: r.workers, ms: r.durationMs }, 'file jobs enqueued for the workers'),
      });
      return watched;
    })();
    starting.catch(() => {
      starting = undefined;
    });
    return starting;
  };
  // The enqueuer creates a missing store (empty, with the index identity), which the retriever then opens.
  // Redis not answering is no reason to refuse searches of an index that is there: serve it as it is, say so,
  // and start watching once Redis answers (searches report the queue's error in their freshness meanwhile).
  let retry: NodeJS.Timeout | undefined;
  if (watch) {
    try {
      await startWatched(true);
    } catch (error) {
      if (!(error instanceof MonoragError) || error.code !== ErrorCode.QUEUE_UNAVAILABLE) throw error;
      context.logger.warn(
        { error: error.message },
        `the file-job queue does not answer: serving the index as it is; changes are watched and enqueued once Redis answers (tried every ${QUEUE_RETRY_MS / 1000} s)`,
      );
      let trying = false;
      retry = setInterval(() => {
        if (trying) return;
        trying = true;
        startWatched(true).then(
          () => {
            clearInterval(retry);
            context.logger.warn('the file-job queue answers again: watching the project, and catching up with a whole-tree run');
          },
          (again: unknown) => context.logger.debug({ error: errorMessage(again) }, 'the file-job queue still does not answer'),
        ).finally(() => {
          trying = false;
        });
      }, QUEUE_RETRY_MS);
      retry.unref();
    }
  }
  let index: OpenIndex;
  try {
    index = await openRetriever(context);
  } catch (error) {
    clearInterval(retry);
    await watched?.close();
    await enqueuer?.close();
    throw error;
  }
  const stopping = new AbortController();
  const control = createIndexControl({
    context, store: index.store, backlog: index.backlog, watched: () => startWatched(false), current: () => watched, stopping: stopping.signal,
    summarise: async (run) => enqueueRunSummary(run, (await index.store.stats()).files),
  });
  return {
    mcp: { ...projectMcpOptions(context, index, control), readFreshness: control.readFreshness },
    index,
    interrupt: () => stopping.abort(),
    close: async () => {
      clearInterval(retry);
      // A plan in progress is short and holds no lock: let it finish.
      await watched?.close();
      await enqueuer?.close();
      await index.close();
    },
  };
}

/** The MCP summary of a queue-mode run: nothing indexed here, `enqueued` says what went to the workers; `files` is the index's count now. */
function enqueueRunSummary(run: EnqueueRun, files: number): IndexRunSummary {
  return {
    mode: run.mode, files, added: 0, changed: 0, deleted: 0, unchanged: run.unchanged, chunksEmbedded: 0, moved: 0, cachePruned: 0, durationMs: run.durationMs,
    enqueued: { queue: run.queue, jobs: run.enqueued, workers: run.workers },
  };
}

/** The MCP server options every served project shares. */
function projectMcpOptions(context: ProjectContext, index: OpenIndex, indexControl: IndexControl): McpServerOptions {
  return {
    retriever: index.retriever,
    root: context.root,
    readFreshness: index.readFreshness,
    indexControl,
    version: CLI_VERSION,
    maxLimit: context.config.search.maxLimit,
    isReadable: createReadablePredicate(context),
    resolveLanguage: resolveLanguageId,
  };
}

/** Index control of a Qdrant index written by workers: status from the store, no updates from here. */
function queueIndexControl(context: ProjectContext, index: OpenIndex): IndexControl {
  return {
    status: async () => ({ index: await index.readFreshness(), watching: 'off', watchedDirectories: 0, lastRun: null, lastError: null }),
    sync: async () => {
      throw new MonoragError(
        ErrorCode.INVALID_ARGUMENT,
        `This server reads the team index in Qdrant, which monorag workers write; it does not index itself. Run \`monorag jobs enqueue ${context.root}\` where the checkout is to queue the changes.`,
      );
    },
    unknownPaths: async (paths) => unknownPaths(context.root, paths, await index.store.listFiles()),
  };
}
