import {
  createIndexScheduler, indexLockHolder, watchGitHead, pathQueueLength, startProjectWatcher, type IndexReport, type IndexScheduler, type ProjectWatcher,
} from '@monorag/indexer';
import type { ProjectContext } from './project-context.js';
import type { ProjectIndexer } from './project-indexer.js';

/** A watched project: file events feed a single-flight scheduler of incremental runs. */
export interface WatchedProject {
  scheduler: IndexScheduler;
  /** The current watcher, or undefined with `watch: false`. */
  watcher(): ProjectWatcher | undefined;
  /** Resolves when the watcher's first scan is done. */
  ready: Promise<void>;
  /** Changed paths not yet indexed: the scheduler's and the git hooks' queue files. */
  pendingChanges(): number;
  /** True while this process or another one indexes the project. */
  indexing(): boolean;
  close(): Promise<void>;
}

/** Options of {@link watchProject}. */
export interface WatchProjectOptions {
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
  onRun?: (report: IndexReport) => void;
}

/**
 * Wires a project's indexer to a chokidar watcher and a scheduler, and schedules one full run at
 * once (it builds a missing index and catches up with changes made while nothing watched). A change
 * of an ignore-rules file triggers a full run and a fresh watcher, so newly included directories are watched.
 */
export function watchProject(context: ProjectContext, indexer: ProjectIndexer, { watch = true, debounceMs = 100, maxWaitMs, onRun }: WatchProjectOptions = {}): WatchedProject {
  const { logger } = context;
  let closed = false;
  const scheduler = createIndexScheduler({
    debounceMs,
    maxWaitMs,
    logger,
    run: async (paths, signal) => {
      const report = await indexer.run(paths, undefined, signal);
      logger.info({ mode: report.mode, added: report.added, changed: report.changed, deleted: report.deleted, ms: report.durationMs }, 'index updated');
      onRun?.(report);
      // A hook may have queued paths while this run held the lock and saw the lock held: pick them up.
      if (pathQueueLength(context.dataDir) > 0) scheduler.enqueue([]);
      return report;
    },
  });
  let watcher: ProjectWatcher | undefined;
  const start = (): ProjectWatcher =>
    startProjectWatcher({
      root: context.root,
      filter: indexer.filter,
      logger,
      onPaths: (paths) => scheduler.enqueue(paths),
      onRulesChanged: () => {
        indexer.filter.reset();
        scheduler.enqueue();
        if (closed) return;
        const old = watcher;
        watcher = start();
        void old?.close();
      },
    });
  if (watch) watcher = start();
  // A commit changes no file in the tree, yet the index must move to the new commit (an empty run does).
  const stopHead = watch ? watchGitHead({ root: context.root, logger, onHeadChange: () => scheduler.enqueue([]) }) : () => {};
  scheduler.enqueue();
  return {
    scheduler,
    watcher: () => watcher,
    ready: watcher ? watcher.ready : Promise.resolve(),
    pendingChanges: () => {
      const s = scheduler.status();
      return s.pendingPaths + (s.pendingFull ? 1 : 0) + pathQueueLength(context.dataDir);
    },
    indexing: () => scheduler.status().running || indexLockHolder(context.dataDir) !== null,
    async close() {
      closed = true;
      stopHead();
      await watcher?.close();
      await scheduler.close();
    },
  };
}
