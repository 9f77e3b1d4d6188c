import { existsSync } from 'node:fs';
import {
  createIndexScheduler, embedderOutageProbe, indexLockHolder, registerWatcher, watchGitHead, pathQueueLength, startProjectWatcher, watchRootPresence,
  type IgnoreFilter, type IndexReport, type IndexScheduler, type OutageProbe, type ProjectWatcher, type WatcherRegistration,
} from '@monorag/indexer';
import { errorMessage, type Logger } from '@monorag/shared';
import type { ProjectContext } from './project-context.js';
import type { ProjectIndexer } from './project-indexer.js';

/**
 * What the runs of a watched project do, reporting `R`: index in this process ({@link indexerRunner}
 * over a `ProjectIndexer`, reporting an `IndexReport`), or plan and enqueue file jobs for the workers
 * (a `ProjectEnqueuer` in queue mode, reporting an `EnqueueRun`).
 */
export interface WatchRunner<R> {
  /** The ignore rules the watcher follows; reset when an ignore-rules file changes. */
  filter: IgnoreFilter;
  /**
   * One run over `paths` (repo-relative; undefined: the whole tree). It may stop early when `signal`
   * is aborted, rejecting with `RUN_INTERRUPTED` (see `ScheduledRun`).
   */
  run(paths: string[] | undefined, signal: AbortSignal): Promise<R>;
  /**
   * Whether the runs also take the paths git hooks queued in the data directory. An in-process run
   * does (the hooks leave their paths to a run holding the index lock), so the watcher starts another
   * run when hooks queued paths during one; in queue mode the hooks' own runs enqueue them.
   */
  takesHookQueue: boolean;
  /**
   * How the scheduler learns that the embedder is back after runs failed for its outage, so the pending
   * changes are indexed within a check interval rather than after the backoff (see `IndexSchedulerOptions.outage`);
   * undefined: the backoff alone.
   */
  outage?: OutageProbe;
  /**
   * Whether the index the runs write is gone (its SQLite file deleted under this process): a watching
   * process then starts a whole-tree run, which builds it anew, as at start-up. Undefined: never checked.
   */
  indexMissing?: () => boolean;
}

/**
 * A {@link WatchRunner} that indexes in this process with `indexer`, logging each run at info. While its
 * embedder is unavailable, its health is checked every second (`embedderOutageProbe`; a server at
 * `EMBEDDING_URL` only: the managed local server is started again by the next run itself).
 */
export function indexerRunner(indexer: ProjectIndexer, logger: Logger): WatchRunner<IndexReport> {
  return {
    filter: indexer.filter,
    takesHookQueue: true,
    outage: embedderOutageProbe(indexer.embedder),
    indexMissing: () => indexer.indexMissing(),
    run: async (paths, signal) => {
      const report = await indexer.run(paths, undefined, signal);
      logger.info({ mode: report.mode, added: report.added, changed: report.changed, deleted: report.deleted, ms: report.durationMs }, 'index updated');
      return report;
    },
  };
}

/** A watched project: file events feed a single-flight scheduler of incremental runs, each reporting `R`. */
export interface WatchedProject<R = IndexReport> {
  scheduler: IndexScheduler<R>;
  /** The current watcher, or undefined with `watch: false`. */
  watcher(): ProjectWatcher | undefined;
  /** Resolves when the watcher's first scan is done. */
  ready: Promise<void>;
  /**
   * Changed paths not yet indexed: the scheduler's, a change of an ignore-rules file whose full run has not
   * started (one), and the git hooks' queue files. A full run asked for without a change (the start-up
   * catch-up, a whole-tree `sync_index`) is no changed path: {@link indexing} reports it.
   */
  pendingChanges(): number;
  /** True while this process or another one indexes the project, or a full run asked for without a changed path waits to start. */
  indexing(): boolean;
  close(): Promise<void>;
}

/** Options of {@link watchProject}. */
export interface WatchProjectOptions<R = IndexReport> {
  /** Start a file watcher (else the scheduler only serves explicit syncs); default true. */
  watch?: boolean;
  /** Debounce of file events, in ms; default 100. */
  debounceMs?: number;
  /**
   * Longest wait for quiet, in ms: a run starts at most this long after the first file event it covers,
   * even while events keep coming; default `defaultMaxWaitMs(debounceMs)` (10 debounces, at most 5 s).
   */
  maxWaitMs?: number;
  /** Called after every successful run. */
  onRun?: (report: R) => void;
}

/**
 * Wires a project's runner (see {@link WatchRunner}) to a chokidar watcher and a scheduler, and, when
 * watching, schedules one full run at once (in process it builds a missing index and catches up with
 * changes made while nothing watched; in queue mode it enqueues the jobs for them); without `watch`
 * runs start only when asked (`scheduler.sync` / `enqueue`). A change of an ignore-rules file
 * triggers a full run and a fresh watcher, so newly included directories are watched. While watching,
 * the process is recorded in the data directory (`registerWatcher`) until `close`.
 */
export function watchProject<R = IndexReport>(
  context: ProjectContext,
  runner: WatchRunner<R>,
  { watch = true, debounceMs = 100, maxWaitMs, onRun }: WatchProjectOptions<R> = {},
): WatchedProject<R> {
  const { logger } = context;
  const { filter } = runner;
  let closed = false;
  /** An ignore-rules file changed and the full run it asks for has not started yet. */
  let rulesPending = false;
  const scheduler = createIndexScheduler<R>({
    debounceMs,
    maxWaitMs,
    outage: runner.outage,
    logger,
    run: async (paths, signal) => {
      const rules = paths === undefined && rulesPending;
      if (paths === undefined) rulesPending = false;
      let report: R;
      try {
        report = await runner.run(paths, signal);
      } catch (error) {
        // The scheduler puts the full run back (a retry, or the follow-up of an interrupted run): so is its change.
        if (rules) rulesPending = true;
        throw error;
      }
      onRun?.(report);
      // A hook may have queued paths while this run held the lock and saw the lock held: pick them up.
      if (runner.takesHookQueue && pathQueueLength(context.dataDir) > 0) scheduler.enqueue([]);
      return report;
    },
  });
  let watcher: ProjectWatcher | undefined;
  /** The current watcher has finished its first scan (before it, it holds no watches yet). */
  let watcherReady = false;
  const start = (): ProjectWatcher => {
    const started = startProjectWatcher({
      root: context.root,
      filter,
      logger,
      onPaths: (paths) => scheduler.enqueue(paths),
      onRulesChanged: () => {
        filter.reset();
        rulesPending = true;
        scheduler.enqueue();
        if (closed) return;
        const old = watcher;
        // The rules file went with the project folder (deleted, moved away): the root check stops watching and starts again once it is back.
        watcher = existsSync(context.root) ? start() : undefined;
        void old?.close();
      },
    });
    watcherReady = false;
    void started.ready.then(() => {
      if (watcher === started) watcherReady = true;
    });
    return started;
  };
  if (watch) watcher = start();
  // Other processes (`status`, `search`) then say that a watcher picks up the changes they count.
  let registration: WatcherRegistration | undefined;
  const register = (): void => {
    registration?.release();
    try {
      registration = registerWatcher(context.dataDir, context.root);
    } catch (error) {
      logger.warn({ dataDir: context.dataDir, err: errorMessage(error) }, 'could not record this watcher in the data directory; other processes will not know it watches');
    }
  };
  if (watch) register();
  // A commit changes no file in the tree, yet the index must move to the new commit (an empty run does).
  const startHead = (): (() => void) => watchGitHead({ root: context.root, logger, onHeadChange: () => scheduler.enqueue([]) });
  let stopHead = watch ? startHead() : () => {};
  // The project folder moved away (and back) or deleted: the watches go with it, so stop saying the
  // project is watched, and watch it again, catching up, once it is back.
  const rootPresence = watch
    ? watchRootPresence({
      root: context.root,
      watching: () => !watcherReady || (watcher?.watchedDirectories() ?? 0) > 0,
      onLost: () => {
        logger.warn({ root: context.root }, 'the project folder is gone (moved or deleted): the file watcher stopped; it starts again when the folder is back at this path');
        const old = watcher;
        watcher = undefined;
        void old?.close();
        stopHead();
        stopHead = () => {};
      },
      onBack: () => {
        if (closed) return;
        logger.warn({ root: context.root }, 'the project folder is back (or the watcher lost its watches): watching it again, and catching up with a whole-tree run');
        const old = watcher;
        watcher = start();
        void old?.close();
        stopHead();
        stopHead = startHead();
        register();
        filter.reset();
        scheduler.enqueue();
      },
    })
    : undefined;
  // The index file deleted under this process (`rm -rf .monorag`): a whole-tree run builds it anew, as at start-up.
  let missingAsked = false;
  const missingCheck = watch && runner.indexMissing
    ? setInterval(() => {
      // Not while the project folder is gone: its data directory went with it.
      const missing = existsSync(context.root) && runner.indexMissing!();
      // The run says so (`the index file was deleted; building a new index of the whole tree`).
      if (missing && !missingAsked) scheduler.enqueue();
      missingAsked = missing;
    }, 1000)
    : undefined;
  missingCheck?.unref();
  // Without a watcher (serve --no-watch) nothing is caught up unasked: the first sync_index of paths updates those paths only.
  if (watch) scheduler.enqueue();
  return {
    scheduler,
    // No watcher while the project folder is not the one watched (a copy put in its place, not yet seen by
    // the root check): the freshness then counts the work tree, rather than trusting a watcher of the old folder.
    watcher: () => (rootPresence?.intact() === false ? undefined : watcher),
    ready: watcher ? watcher.ready : Promise.resolve(),
    pendingChanges: () => scheduler.status().pendingPaths + (rulesPending ? 1 : 0) + pathQueueLength(context.dataDir),
    indexing: () => {
      const s = scheduler.status();
      return s.running || (s.pendingFull && !rulesPending) || indexLockHolder(context.dataDir) !== null;
    },
    async close() {
      closed = true;
      rootPresence?.stop();
      if (missingCheck) clearInterval(missingCheck);
      registration?.release();
      stopHead();
      await watcher?.close();
      await scheduler.close();
    },
  };
}
