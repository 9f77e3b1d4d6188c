import { defaultMaxWaitMs, type IndexReport } from '@monorag/indexer';
import { directoryCount } from '@monorag/mcp';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { createProjectContext, type ProjectContext } from '../project-context.js';
import { enqueueRunLine, enqueuerRunner, openProjectEnqueuer } from '../project-enqueuer.js';
import { openProjectIndexer } from '../project-indexer.js';
import { skippedLines } from '../skipped-lines.js';
import { indexerRunner, watchProject, type WatchedProject } from '../watch-project.js';
import { DUPLICATE_SIGNAL_MS } from '../duplicate-signal.js';

/** Options of `monorag watch`. */
export interface WatchCommandOptions {
  dataDir?: string;
  /** Debounce of file events in ms; default 100. */
  debounceMs?: number;
  /**
   * Longest wait for quiet in ms: a run starts at most this long after the first change it covers,
   * even while changes keep coming; at least `debounceMs`. Default `defaultMaxWaitMs(debounceMs)`.
   */
  maxWaitMs?: number;
}

/** The debounce `monorag watch` uses when none is given, in ms (the watcher's own default). */
const DEFAULT_DEBOUNCE_MS = 100;

/** The line printed after each run: time, mode, counts and time taken, then the skipped files and why. */
function runLine(r: IndexReport): string {
  return (
    `${new Date().toISOString()} ${r.mode} update: ${r.added} added, ${r.changed} changed, ${r.deleted} deleted, ` +
    `${r.skipped.length} skipped, ${r.chunksEmbedded} embedded, ${r.durationMs} ms\n` +
    skippedLines(r.skipped, '`monorag index --json` lists them all')
  );
}

/**
 * `monorag watch [path]`: brings the index up to date, then keeps it so from file events until
 * SIGINT/SIGTERM. Prints one line per update on stdout, followed by a line per skipped file with the
 * reason (as `monorag index` does). On the first SIGINT/SIGTERM it says on stderr that it stops; a run
 * in progress is stopped at once (its lock released; every file is written in its own transaction, so
 * what it wrote stays, as with Ctrl-C in `monorag index`) and the process exits 130; when idle it closes
 * the watcher and the index and returns (exit 0). A repeat of the signal within 2 s (pnpm and tsx relay
 * a terminal's Ctrl-C) is ignored; a later one exits 130 at once.
 * With `queue.kind` bullmq (the team stack) nothing is indexed in this process and the index lock is
 * never taken: each run plans and enqueues file jobs for `monorag worker`s, as `monorag index` does there,
 * and prints `... N file job(s) enqueued for the workers on queue Q ...`; the first run after which no
 * worker is connected warns on stderr. A signal during such a run lets it finish (a plan is short), then returns.
 * @throws MonoragError `INVALID_ARGUMENT` when `maxWaitMs` is shorter than the debounce; the errors of
 *   opening the index (or, in queue mode, the queue: QUEUE_UNAVAILABLE).
 */
export async function runWatchCommand(project: string | undefined, options: WatchCommandOptions): Promise<void> {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  if (options.maxWaitMs !== undefined && options.maxWaitMs < debounceMs) {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `--max-wait-ms ${options.maxWaitMs} is shorter than the debounce (${debounceMs} ms${options.debounceMs === undefined ? ', the default' : ''}); give at least ${debounceMs}, or a shorter --debounce-ms.`,
    );
  }
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const timing = { debounceMs, maxWaitMs: options.maxWaitMs ?? defaultMaxWaitMs(debounceMs) };
  if (context.config.queue.kind === 'bullmq') {
    const enqueuer = await openProjectEnqueuer(context, { warn: (message) => process.stderr.write(`monorag: warning: ${message}\n`) });
    const watched = watchProject(context, enqueuerRunner(enqueuer), { ...timing, onRun: (r) => process.stdout.write(enqueueRunLine(r)) });
    await untilStopped(context, watched, {
      startLine: `; changes go to the queue ${enqueuer.queue.name} for \`monorag worker\`s`,
      stopLine: (pending) =>
        pending > 0
          ? `${pending} change(s) were not enqueued yet: \`monorag index ${context.root}\` enqueues them.`
          : `the changes seen are on the queue ${enqueuer.queue.name} for the workers.`,
    });
    await watched.close();
    await enqueuer.close();
    return;
  }
  const indexer = await openProjectIndexer(context);
  const watched = watchProject(context, indexerRunner(indexer, context.logger), { ...timing, onRun: (r) => process.stdout.write(runLine(r)) });
  await untilStopped(context, watched, {
    startLine: '',
    abandon: () => indexer.abandon(),
    stopLine: (pending) => (pending > 0 ? `${pending} change(s) were not indexed yet: \`monorag index ${context.root}\` indexes them.` : 'the index is up to date.'),
  });
  await watched.close();
  await indexer.close();
}

/** How {@link untilStopped} speaks for one kind of watch. */
interface StopOptions {
  /** Appended to the `Watching ... Ctrl-C stops.` line, before its full stop. */
  startLine: string;
  /**
   * Releases what a run in progress holds, synchronously, for a process about to exit (in process: the
   * index lock). Given, a signal during a run exits 130 at once; without (a queue-mode plan), the run finishes first.
   */
  abandon?: () => void;
  /** What the stop line says after `stopping the watch (SIGINT); `, given the changes not yet taken by a run. */
  stopLine: (pending: number) => string;
}

/**
 * Prints the `Watching` line once the watcher is ready, and resolves on the first SIGINT/SIGTERM (see
 * {@link runWatchCommand}) with the scheduler closed, so no new run starts; the caller closes the rest.
 */
async function untilStopped<R>(context: ProjectContext, watched: WatchedProject<R>, { startLine, abandon, stopLine }: StopOptions): Promise<void> {
  let firstSignalAt: number | undefined;
  let resolveStop!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStop = resolve));
  // Installed for the life of the process (not `once`): with no listener left, a relayed second
  // SIGINT would kill the process (tsx's child exits at once) before the lock is released.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (firstSignalAt !== undefined) {
      if (Date.now() - firstSignalAt < DUPLICATE_SIGNAL_MS) return;
      process.stderr.write(`monorag: ${signal} again; exiting now.\n`);
      abandon?.();
      process.exit(130);
    }
    firstSignalAt = Date.now();
    if (abandon && watched.scheduler.status().running) {
      process.stderr.write(
        `\nmonorag: interrupted (${signal}); stopping the watch and the index run in progress. The files indexed so far are kept. ` +
          `Run \`monorag watch ${context.root}\` or \`monorag index ${context.root}\` again to finish (it skips what is already indexed).\n`,
      );
      // As `monorag index` on Ctrl-C: free the lock now, synchronously, and leave the run with the process.
      abandon();
      process.exit(130);
    }
    // No new run may start while the watcher closes (a queue-mode plan in progress finishes first).
    const closing = watched.scheduler.close();
    void closing.then(() => {
      // A full run that never started (the start-up catch-up) may have had changes to index: not up to date.
      const pending = watched.pendingChanges() || (watched.scheduler.status().pendingFull ? 1 : 0);
      process.stderr.write(`\nmonorag: stopping the watch (${signal}); ${stopLine(pending)}\n`);
      resolveStop();
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  void watched.ready.then(() => {
    const watcher = watched.watcher();
    if (firstSignalAt !== undefined || !watcher) return;
    process.stdout.write(`Watching ${context.root} (${watcher.mode()}, ${directoryCount(watcher.watchedDirectories())})${startLine}. Ctrl-C stops.\n`);
  });
  await stopped;
}
