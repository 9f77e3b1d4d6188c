import { errorMessage, type Logger } from '@monorag/shared';
import type { IndexReport } from './index-project.js';
import { normaliseScope } from './path-scope.js';

/** One run the scheduler asks for: the paths to bring up to date, or undefined for the whole tree. */
export type ScheduledRun = (paths: string[] | undefined) => Promise<IndexReport>;

/** Options of {@link createIndexScheduler}. */
export interface IndexSchedulerOptions {
  /** Performs one index run (the caller takes the cross-process lock inside it). */
  run: ScheduledRun;
  /** Quiet time after the last trigger before a run starts, in ms; default 100. */
  debounceMs?: number;
  /** First retry delay after a failed run, in ms (doubles up to 60 s); default 2000. */
  retryMs?: number;
  logger?: Logger;
}

/** What the scheduler is doing. */
export interface SchedulerStatus {
  /** A run is in progress. */
  running: boolean;
  /** Distinct paths waiting for the next run. */
  pendingPaths: number;
  /** The next run covers the whole tree. */
  pendingFull: boolean;
  /** Runs finished (successfully or not). */
  runs: number;
  lastReport: IndexReport | null;
  /** Message of the last failed run, cleared by a successful one. */
  lastError: string | null;
}

/**
 * Single-flight indexing for one project: triggers are debounced and coalesced per path; while a run
 * is in progress, new triggers collect into exactly one follow-up run, never a second concurrent run.
 */
export interface IndexScheduler {
  /**
   * Adds paths to the next run (undefined: the whole tree) and (re)starts the debounce timer.
   * @throws MonoragError `INVALID_ARGUMENT` for a path that is absolute or leaves the root; nothing is queued then.
   */
  enqueue(paths?: readonly string[]): void;
  /**
   * Like {@link enqueue} without the debounce, and resolves with the report of the run that covers the
   * request (the follow-up when a run is already in progress, since that run may predate the request).
   * @throws the run's error.
   */
  sync(paths?: readonly string[]): Promise<IndexReport>;
  /** Resolves when nothing is pending or running (a failed run still waiting for its retry counts as pending). */
  idle(): Promise<void>;
  status(): SchedulerStatus;
  /** Stops scheduling; waits for a run in progress. */
  close(): Promise<void>;
}

interface Waiter {
  resolve(report: IndexReport): void;
  reject(error: unknown): void;
}

/** Creates an {@link IndexScheduler}. */
export function createIndexScheduler({ run, debounceMs = 100, retryMs = 2000, logger }: IndexSchedulerOptions): IndexScheduler {
  let pending = new Set<string>();
  let pendingFull = false;
  let hasPending = false;
  let waiters: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> | undefined;
  let closed = false;
  let failures = 0;
  let idleWaiters: Array<() => void> = [];
  const state = { runs: 0, lastReport: null as IndexReport | null, lastError: null as string | null };

  // Paths are checked before they are queued: a bad one is refused to its caller and never reaches a
  // run, where it would fail every later run that includes it.
  const add = (paths: readonly string[] | undefined): void => {
    const checked = paths === undefined ? undefined : normaliseScope(paths);
    if (checked === undefined || checked.includes('')) pendingFull = true;
    else for (const p of checked) pending.add(p);
    hasPending = true;
  };

  const schedule = (delayMs: number): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      start();
    }, delayMs);
  };

  const settleIdle = (): void => {
    if (current || hasPending || timer) return;
    const list = idleWaiters;
    idleWaiters = [];
    for (const resolve of list) resolve();
  };

  const start = (): void => {
    // Single flight: the run in progress starts the follow-up when it ends.
    if (current || !hasPending || closed) return;
    const paths = pendingFull ? undefined : [...pending].sort();
    const batch = waiters;
    pending = new Set();
    pendingFull = false;
    hasPending = false;
    waiters = [];
    current = (async () => {
      try {
        const report = await run(paths);
        failures = 0;
        state.lastReport = report;
        state.lastError = null;
        for (const w of batch) w.resolve(report);
      } catch (error) {
        failures++;
        state.lastError = errorMessage(error);
        logger?.warn({ err: state.lastError, paths: paths?.length ?? 'all' }, 'index run failed; will retry');
        for (const w of batch) w.reject(error);
        // Put the paths back so that nothing is forgotten; retry later with backoff.
        add(paths);
        schedule(Math.min(60_000, retryMs * 2 ** (failures - 1)));
      } finally {
        state.runs++;
        current = undefined;
      }
      if (hasPending && !timer) start();
      settleIdle();
    })();
  };

  return {
    enqueue(paths) {
      add(paths);
      schedule(debounceMs);
    },
    sync(paths) {
      return new Promise<IndexReport>((resolve, reject) => {
        add(paths);
        waiters.push({ resolve, reject });
        if (timer) clearTimeout(timer);
        timer = undefined;
        start();
      });
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
    status() {
      return { running: current !== undefined, pendingPaths: pending.size, pendingFull, ...state };
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await current;
    },
  };
}
