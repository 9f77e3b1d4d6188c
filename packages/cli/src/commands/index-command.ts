import path from 'node:path';
import { INDEX_LOCK_FILE, indexLockHolder, normaliseScope, pathQueueLength, readPathQueue, type IndexReport } from '@monorag/indexer';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { resolvePathPrefix } from '@monorag/retriever';
import { createProgressReporter } from '../progress-reporter.js';
import { drainedQueued, queueRunLine, type HookQueued } from '../queue-run-line.js';
import { runEnqueueCommand } from './jobs-command.js';
import { runEnqueueFromQueue } from './enqueue-from-queue.js';
import { createProjectContext } from '../project-context.js';
import { openProjectIndexer } from '../project-indexer.js';
import { redactedLines } from '../secret-summary.js';
import { skippedLines } from '../skipped-lines.js';
import { warnPathArguments } from '../path-warnings.js';

/** Options of `monorag index`. */
export interface IndexCommandOptions {
  dataDir?: string;
  maxFileBytes?: number;
  rebuild?: boolean;
  json?: boolean;
  quiet?: boolean;
  /** Only these repo-relative paths (incremental mode). */
  paths?: string[];
  /** Index the paths git hooks queued in the data directory; exits at once when another indexer holds the lock. */
  fromQueue?: boolean;
  /** With `fromQueue`: the git hook that started this run, named in its log line. */
  hook?: string;
  /**
   * With `hook`: what that hook queued (its own queue file's path count, or `full`), which its log line
   * reports; without, the line reports what the run took from the queue (every hook's files).
   */
  queued?: HookQueued;
  /**
   * With `hook`: that hook's own queue file (absolute). With the BullMQ queue the run enqueues that file's
   * paths (and those earlier runs left behind), so that its line states what this hook did (see
   * `runEnqueueFromQueue`); an in-process run indexes every queued path under the lock, as without it.
   */
  queueFile?: string;
  /** With `fromQueue`: print the full report too, not only the one log line (as log level info, debug or trace does). */
  verbose?: boolean;
}

/** Log levels that ask `--from-queue` runs for the full report. */
const VERBOSE_LEVELS = new Set(['info', 'debug', 'trace']);

/**
 * `monorag index [path]`: builds or updates the project's index under the project's lock; prints a
 * summary (or JSON) on stdout. With `--paths` only those paths are brought up to date; with
 * `--from-queue` the paths queued by git hooks (returns null when another process holds the lock,
 * since that process picks up the queue); such a run prints one line per index run (hook, paths
 * the hook enqueued, ms) instead of the summary, unless `--verbose` or log level info/debug/trace asks for more.
 */
export async function runIndexCommand(project: string | undefined, options: IndexCommandOptions): Promise<IndexReport | null> {
  if (options.rebuild && ((options.paths?.length ?? 0) > 0 || options.fromQueue)) {
    // The rebuilt file replaces the whole index: built from some paths only, it would drop every other file.
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `--rebuild builds the whole tree and cannot be combined with ${options.fromQueue ? '--from-queue' : '--paths'}; run \`monorag index --rebuild\` alone.`,
    );
  }
  if (options.hook !== undefined && !options.fromQueue) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, "--hook applies only with --from-queue (the git hooks' runs); drop it.");
  }
  if (options.queued !== undefined && options.hook === undefined) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, "--queued applies only with --hook (the git hooks' runs); drop it.");
  }
  if (options.queueFile !== undefined && options.hook === undefined) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, "--queue-file applies only with --hook (the git hooks' runs); drop it.");
  }
  const context = createProjectContext({
    project,
    argName: '[path]',
    overrides: { dataDir: options.dataDir, index: { maxFileBytes: options.maxFileBytes } },
  });
  // --paths takes repo-relative paths or absolute ones inside the project, as `search --path` does; the root itself means everything.
  // A path outside the project, absolute elsewhere or relative climbing out with `..`, is refused here with one message
  // naming --paths (PATH_OUTSIDE_PROJECT), before any warning that it names no file.
  let paths = options.paths?.map((p) => resolvePathPrefix(context.root, p, '--paths') ?? '');
  if (paths?.includes('')) paths = undefined;
  if (paths) normaliseScope(paths);
  // Team stack: the work goes to `monorag worker` processes through BullMQ; in-process runs write SQLite only.
  if (context.config.queue.kind === 'bullmq') {
    // A hook's run hands its queued paths to the workers and returns; others wait for the workers.
    if (options.fromQueue) {
      await runEnqueueFromQueue(project, { dataDir: options.dataDir, hook: options.hook, queued: options.queued, queueFile: options.queueFile, json: options.json });
    }
    else await runEnqueueCommand(project, { dataDir: options.dataDir, rebuild: options.rebuild, wait: true, json: options.json, paths });
    return null;
  }
  if (context.config.store.kind !== 'sqlite') {
    throw new MonoragError(
      ErrorCode.CONFIG_INVALID,
      `store.kind is "${context.config.store.kind}", which \`monorag index\` writes through the BullMQ queue: set MONORAG_QUEUE=bullmq and REDIS_URL, and run \`monorag worker\` processes.`,
    );
  }
  const started = Date.now();
  const hook = options.hook ?? 'from-queue';
  const summary = !options.fromQueue || options.verbose || VERBOSE_LEVELS.has(context.config.logLevel);
  const holder = options.fromQueue ? indexLockHolder(context.dataDir) : null;
  if (holder !== null) {
    if (!options.quiet) process.stderr.write('monorag: another indexer holds the lock; it will index the queued paths.\n');
    else if (options.hook) process.stdout.write(`${new Date().toISOString()} ${hook}: another indexer${holder > 0 ? ` (pid ${holder})` : ''} holds the lock and will index the queued paths\n`);
    return null;
  }
  // Waiting for another run's lock can take minutes: say so, even with --quiet (it is no progress output).
  const onLockWait = (pid: number | null, waitMs: number): void => {
    process.stderr.write(
      `monorag: another monorag process${pid === null ? '' : ` (pid ${pid})`} is indexing ${context.root} and holds the lock ` +
        `${path.join(context.dataDir, INDEX_LOCK_FILE)}; waiting for it to finish (at most ${Math.round(waitMs / 1000)} s; Ctrl-C to give up).\n`,
    );
  };
  const indexer = await openProjectIndexer(context, { rebuild: options.rebuild, onLockWait });
  const progress = createProgressReporter({ quiet: options.quiet || options.json });
  // Ctrl-C: every file is written in its own transaction, so what is written stays; say so, free the lock, exit 130.
  const onInterrupt = (signal: NodeJS.Signals): void => {
    progress.stop();
    process.stderr.write(
      options.rebuild
        ? `\nmonorag: interrupted (${signal}); the unfinished rebuild is discarded and the previous index is unchanged. Run \`monorag index --rebuild ${context.root}\` again to rebuild.\n`
        : `\nmonorag: interrupted (${signal}); the files indexed so far are kept. Run \`monorag index ${context.root}\` again to finish (it skips what is already indexed).\n`,
    );
    indexer.abandon();
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  try {
    let enqueued = options.fromQueue ? readPathQueue(context.dataDir) : undefined;
    if (paths) {
      warnPathArguments(context, paths, await indexer.store.listFiles());
    }
    let report = await indexer.run(options.fromQueue ? [] : paths, (p) => progress.update(p));
    if (enqueued && !options.json) process.stdout.write(queueRunLine(hook, options.queued ?? drainedQueued(enqueued), `indexed in ${Date.now() - started} ms`));
    // Hooks that fired during the run saw the lock held, left their paths queued and logged that this
    // run would index them: so it does, whether it was started by a hook or by hand.
    while (pathQueueLength(context.dataDir) > 0 && indexLockHolder(context.dataDir) === null) {
      enqueued = readPathQueue(context.dataDir);
      const runStarted = Date.now();
      const followUp = await indexer.run([]);
      if (options.fromQueue) {
        report = followUp;
        if (!options.json) process.stdout.write(queueRunLine(hook, drainedQueued(enqueued), `indexed in ${Date.now() - runStarted} ms`, true));
      } else if (!options.json && !options.quiet) {
        process.stderr.write(
          `monorag: git hooks queued ${queueDescription(drainedQueued(enqueued))} during the run; indexed them too ` +
            `(${followUp.added} added, ${followUp.changed} changed, ${followUp.deleted} deleted, in ${Date.now() - runStarted} ms).\n`,
        );
      }
    }
    progress.stop();
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
    } else if (summary) {
      const secs = report.durationMs / 1000;
      process.stdout.write(
        `Indexed ${context.root}${report.mode === 'paths' ? ' (given paths only)' : ''}\n` +
          `  files: ${report.files} in index (${report.added} added${report.moved > 0 ? ` of which ${report.moved} moved with their vectors` : ''}, ` +
          `${report.changed} changed, ${report.deleted} deleted, ${report.unchanged} unchanged, ${report.skipped.length} skipped)\n` +
          skippedLines(report.skipped, '--json lists them all') +
          redactedLines(report.redacted) +
          `  chunks: ${report.totalChunks} in index; ${report.chunksWritten} written, ${report.chunksEmbedded} embedded, ${report.chunksFromCache} from cache` +
          (report.cachePruned > 0 ? `; ${report.cachePruned} unused cache entries pruned` : '') + '\n' +
          `  time: ${secs.toFixed(1)} s (${(report.chunksWritten / Math.max(secs, 0.001)).toFixed(1)} chunks/s)` +
          (report.lockWaitMs !== undefined ? `, after ${(report.lockWaitMs / 1000).toFixed(1)} s waiting for the other process's run` : '') + '\n' +
          `  index: ${context.storeFile}\n` +
          (report.files === 0 && report.mode !== 'paths' ? emptyIndexHint(report.skipped.length) : ''),
      );
    }
    return report;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
    progress.stop();
    await indexer.close();
  }
}

/** `a full run` or `N path(s)`, as the hooks' log says. */
function queueDescription(queued: HookQueued): string {
  return queued === 'full' ? 'a full run' : `${queued} path(s)`;
}

/** Why a full run can end with no file in the index, and where to look. */
function emptyIndexHint(skipped: number): string {
  return (
    `  note: no file was indexed: ${skipped > 0 ? 'every file found was skipped (listed above), and the rest' : 'the project holds no files, or all of them'} ` +
    'are left out by ignore rules (.gitignore, .git/info/exclude, .monoragignore), by the default rules (dependency and build folders such as node_modules/, dist/, target/, coverage/; a `!dist/` line in .monoragignore re-includes one) ' +
    'or by name (lockfiles, bundles, secret-looking files).\n'
  );
}
