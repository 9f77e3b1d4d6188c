import { errorMessage, type Logger } from '@monorag/shared';
import type { IndexReport } from './index-project.js';
import { normaliseScope } from './path-scope.js';
import { isRunInterrupted } from './run-interrupted.js';

/**
 * One run the scheduler asks for: the paths to bring up to date, or undefined for the whole tree.
 * When the scheduler aborts `signal` (newer changes have waited `maxWaitMs`), the run should stop
 * at its next safe point and reject with `RUN_INTERRUPTED` (`indexProject` does, given the signal).
 * `R` is what a run reports: an {@link IndexReport} for in-process runs, or another record (the CLI's
 * queue mode plans and enqueues file jobs instead of indexing).
 */
export type ScheduledRun<R = IndexReport> = (paths: string[] | undefined, signal: AbortSignal) => Promise<R>;

/**
 * Watches the outage of a service the runs need (the embedder), so that a run that failed for it starts
 * again as soon as the service answers, not after the backoff (see {@link IndexSchedulerOptions.outage}).
 */
export interface OutageProbe {
  /** What is checked, for the log, e.g. `the embedding server at http://127.0.0.1:8765`. */
  name: string;
  /** Whether a run's error is an outage of the service (e.g. `EMBEDDER_UNAVAILABLE`); other failures keep the backoff. */
  covers(error: unknown): boolean;
  /** One cheap check that the service answers (a health request with a short time-out, no real work); a rejection counts as false. */
  check(): Promise<boolean>;
  /** Time from the end of one check to the next, in ms; default 1,000. */
  intervalMs?: number;
}

/** Longest delay before a failed run is retried, in ms: the backoff's cap, and the retry while an outage's checks fail. */
const MAX_RETRY_MS = 60_000;

/** Options of {@link createIndexScheduler}. */
export interface IndexSchedulerOptions<R = IndexReport> {
  /** Performs one index run (the caller takes the cross-process lock inside it). */
  run: ScheduledRun<R>;
  /** Quiet time after the last trigger before a run starts, in ms; default 100. */
  debounceMs?: number;
  /**
   * Longest wait for quiet, in ms: a run starts at the latest this long after the first trigger it
   * covers, even while triggers keep coming (a file rewritten every 50 ms would otherwise restart the
   * debounce for ever and starve every other change). Default {@link defaultMaxWaitMs}`(debounceMs)`.
   */
  maxWaitMs?: number;
  /** First retry delay after a failed run, in ms (doubles up to 60 s); default 2000. */
  retryMs?: number;
  /**
   * Recovery from an outage of the embedder (or another service the runs need). After a run fails with
   * an error it `covers`, the scheduler calls `check()` at once, then every `intervalMs` while the checks
   * fail, changes are pending and no run is in progress. Once a check has failed, the backoff is set
   * aside: the first check that succeeds after a failed one starts the run at once, and while the checks
   * fail no run is retried before 60 s after the failure (a save still starts one). A check that succeeds
   * before any has failed (the service answers, yet the run failed) ends the checks and leaves the
   * backoff as it is, so a service that answers its health check but fails its work is not retried
   * every `intervalMs`. Without it, and for other failures, the backoff alone applies.
   */
  outage?: OutageProbe;
  logger?: Logger;
}

/** What the scheduler is doing. */
export interface SchedulerStatus<R = IndexReport> {
  /** A run is in progress. */
  running: boolean;
  /** Distinct paths waiting for the next run. */
  pendingPaths: number;
  /** The next run covers the whole tree. */
  pendingFull: boolean;
  /** Runs finished (successfully or not). */
  runs: number;
  lastReport: R | null;
  /** Message of the last failed run, cleared by a successful one. */
  lastError: string | null;
}

/**
 * Single-flight indexing for one project: triggers are debounced and coalesced per path; while a run
 * is in progress, new triggers collect into exactly one follow-up run, never a second concurrent run.
 * Triggers that have waited `maxWaitMs` behind a run still in progress interrupt it (its signal is
 * aborted): the run stops at its next file or embedding slice, keeping what it wrote, and the
 * follow-up covers both its paths and the new ones, newest files first. So a save is not held up for
 * minutes behind a long run (a generated file of thousands of chunks, a branch switch), and every
 * interrupted run still finishes the slice it was embedding, so a long run progresses however often
 * it is interrupted.
 */
export interface IndexScheduler<R = IndexReport> {
  /**
   * Adds paths to the next run (undefined: the whole tree) and (re)starts the debounce timer, which
   * never runs past `maxWaitMs` after the first trigger the next run covers.
   * @throws MonoragError `INVALID_ARGUMENT` for a path that is absolute or leaves the root; nothing is queued then.
   */
  enqueue(paths?: readonly string[]): void;
  /**
   * Like {@link enqueue} without the debounce, and resolves with the report of the run that covers the
   * request (the follow-up when a run is already in progress, since that run may predate the request).
   * @throws the run's error.
   */
  sync(paths?: readonly string[]): Promise<R>;
  /** Resolves when nothing is pending or running (a failed run still waiting for its retry counts as pending). */
  idle(): Promise<void>;
  status(): SchedulerStatus<R>;
  /** Stops scheduling and the outage checks (no timer is left); waits for a check and a run in progress. */
  close(): Promise<void>;
}

/** Multiple of the debounce that {@link defaultMaxWaitMs} allows a burst of triggers to delay a run. */
const MAX_WAIT_DEBOUNCES = 10;
/**
 * Cap of {@link defaultMaxWaitMs}, in ms: 5 s. Long enough that a burst (a save storm, a branch switch,
 * a build writing files) still ends in one run rather than many, short enough that an edit made while
 * another file is rewritten without pause is searchable within seconds, as a watcher promises.
 */
const MAX_WAIT_CAP_MS = 5_000;

/**
 * The default longest wait of a debounced run, in ms: 10 debounces, capped at 5 s, and never shorter
 * than the debounce itself (1,000 ms for the default 100 ms debounce; 5,000 ms from a 500 ms debounce
 * on; a debounce over 5 s waits at most one debounce). Ten debounces let a burst of events coalesce
 * into one run; the cap bounds how long continuous writes to one file delay the others.
 */
export function defaultMaxWaitMs(debounceMs: number): number {
  return Math.max(debounceMs, Math.min(MAX_WAIT_DEBOUNCES * debounceMs, MAX_WAIT_CAP_MS));
}

interface Waiter<R> {
  resolve(report: R): void;
  reject(error: unknown): void;
}

/** Creates an {@link IndexScheduler}; `R` is what a run reports (see {@link ScheduledRun}). */
export function createIndexScheduler<R = IndexReport>({
  run, debounceMs = 100, maxWaitMs = defaultMaxWaitMs(debounceMs), retryMs = 2000, outage, logger,
}: IndexSchedulerOptions<R>): IndexScheduler<R> {
  let pending = new Set<string>();
  let pendingFull = false;
  let hasPending = false;
  /** When the first trigger not yet taken by a run came (Date.now() ms), for the longest wait. */
  let firstPendingAt: number | undefined;
  let waiters: Waiter<R>[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** `timer` is the retry of a failed run (not a debounce). */
  let timerIsRetry = false;
  let current: Promise<void> | undefined;
  /** Aborts the run in progress (see {@link ScheduledRun}). */
  let controller: AbortController | undefined;
  /** Fires when pending triggers have waited `maxWaitMs` behind the run in progress. */
  let preemptTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let failures = 0;
  /** When the last run failed for an outage `outage` covers (Date.now() ms). */
  let outageFailedAt = 0;
  /** A check of `outage` has failed since the last run that did not fail for the outage. */
  let sawDown = false;
  /** The next check of `outage`, or the check in flight. */
  let checkTimer: ReturnType<typeof setTimeout> | undefined;
  let checking: Promise<void> | undefined;
  /** A run failed for the outage while a check was in flight: check again once it ends. */
  let recheck = false;
  const checkIntervalMs = outage?.intervalMs ?? 1000;
  let idleWaiters: Array<() => void> = [];
  const state = { runs: 0, lastReport: null as R | null, lastError: null as string | null };

  // Paths are checked before they are queued: a bad one is refused to its caller and never reaches a
  // run, where it would fail every later run that includes it.
  const add = (paths: readonly string[] | undefined): void => {
    const checked = paths === undefined ? undefined : normaliseScope(paths);
    if (checked === undefined || checked.includes('')) pendingFull = true;
    else for (const p of checked) pending.add(p);
    hasPending = true;
    firstPendingAt ??= Date.now();
  };

  const schedule = (delayMs: number, retry = false): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timerIsRetry = retry;
    timer = setTimeout(() => {
      timer = undefined;
      timerIsRetry = false;
      start();
    }, delayMs);
  };

  /** Arms the next check of `outage` in `delayMs` (one at a time). */
  const watchOutage = (delayMs: number): void => {
    if (!outage || closed || checkTimer) return;
    if (checking) {
      recheck = true;
      return;
    }
    recheck = false;
    checkTimer = setTimeout(() => {
      checkTimer = undefined;
      checking = checkOutage(outage).then((verdict) => {
        checking = undefined;
        if (verdict === 'down' || recheck) watchOutage(verdict === 'down' ? checkIntervalMs : 0);
        if (verdict !== 'back') return;
        if (timer) clearTimeout(timer);
        timer = undefined;
        timerIsRetry = false;
        start();
      });
    }, delayMs);
  };

  /**
   * One check of `outage`: `down` (check again), `back` (the service answers after a failed check: start
   * the run now) or `stop` (a run is in progress, and decides by its outcome; nothing is pending; closed;
   * or the service answered at the first check, so the backoff stands).
   */
  const checkOutage = async (probe: OutageProbe): Promise<'down' | 'back' | 'stop'> => {
    const moot = (): boolean => closed || current !== undefined || !hasPending;
    if (moot()) return 'stop';
    const up = await probe.check().catch(() => false);
    if (moot()) return 'stop';
    if (!up) {
      if (!sawDown) logger?.info({ service: probe.name, intervalMs: checkIntervalMs }, 'service unavailable; the pending changes are indexed as soon as it answers');
      sawDown = true;
      // No blind retry while the checks fail, short of the cap.
      if (timer && timerIsRetry) schedule(Math.max(0, outageFailedAt + MAX_RETRY_MS - Date.now()), true);
      return 'down';
    }
    if (!sawDown) return 'stop';
    sawDown = false;
    logger?.info({ service: probe.name }, 'service answers again; indexing the pending changes now');
    return 'back';
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
    firstPendingAt = undefined;
    waiters = [];
    const runController = new AbortController();
    controller = runController;
    current = (async () => {
      try {
        const report = await run(paths, runController.signal);
        failures = 0;
        sawDown = false;
        state.lastReport = report;
        state.lastError = null;
        for (const w of batch) w.resolve(report);
      } catch (error) {
        // Put the paths back so that nothing is forgotten.
        add(paths);
        if (runController.signal.aborted && isRunInterrupted(error)) {
          // Not a failure: newer changes go first, and the follow-up (started below) takes this run's waiters.
          logger?.info({ paths: paths?.length ?? 'all' }, 'index run interrupted by newer changes; the next run goes on');
          waiters = [...batch, ...waiters];
        } else {
          failures++;
          state.lastError = errorMessage(error);
          logger?.warn({ err: state.lastError, paths: paths?.length ?? 'all' }, 'index run failed; will retry');
          for (const w of batch) w.reject(error);
          // Retry later with backoff; during an outage `outage` covers, its checks may start the run sooner.
          schedule(Math.min(MAX_RETRY_MS, retryMs * 2 ** (failures - 1)), true);
          if (outage?.covers(error)) {
            outageFailedAt = Date.now();
            watchOutage(0); // at once: a check that fails before the backoff's first retry puts it off
          } else {
            sawDown = false;
          }
        }
      } finally {
        state.runs++;
        current = undefined;
        controller = undefined;
        if (preemptTimer) clearTimeout(preemptTimer);
        preemptTimer = undefined;
      }
      if (hasPending && !timer) start();
      settleIdle();
    })();
  };

  /** While a run is in progress, interrupts it once pending triggers have waited `maxWaitMs`. */
  const armPreempt = (): void => {
    if (!current || preemptTimer || closed) return;
    preemptTimer = setTimeout(() => {
      preemptTimer = undefined;
      if (current && hasPending && !closed) controller?.abort();
    }, Math.max(0, firstPendingAt! + maxWaitMs - Date.now()));
  };

  return {
    enqueue(paths) {
      add(paths);
      armPreempt();
      // The debounce restarts with each trigger, but never past the longest wait since the first one.
      schedule(Math.max(0, Math.min(debounceMs, firstPendingAt! + maxWaitMs - Date.now())));
    },
    sync(paths) {
      return new Promise<R>((resolve, reject) => {
        add(paths);
        armPreempt();
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
      if (preemptTimer) clearTimeout(preemptTimer);
      preemptTimer = undefined;
      if (checkTimer) clearTimeout(checkTimer);
      checkTimer = undefined;
      await checking;
      await current;
    },
  };
}
