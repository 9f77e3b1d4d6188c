import { readPathQueue, readQueueFile, type QueuedPaths } from '@monorag/indexer';
import { createProjectContext } from '../project-context.js';
import { drainedQueued, hookEnqueueLine, queuedDescription, type HookQueued } from '../queue-run-line.js';
import { runEnqueueCommand, widenedReason, type EnqueueReport } from './jobs-command.js';

/**
 * Age from which another queue file counts as left behind, in ms (by mtime): 60 s. Hooks that fire
 * together (a checkout, a rebase) start their runs within seconds, each to take its own file; a file
 * older than this was left by a run that failed (Redis down) or was stopped, and the next run takes it.
 */
export const LEFTOVER_QUEUE_MS = 60_000;

/** Options of {@link runEnqueueFromQueue}. */
export interface EnqueueFromQueueOptions {
  dataDir?: string;
  /** The git hook that started the run, named in its line; default `from-queue`. */
  hook?: string;
  /** What that hook queued (see `index --queued`); default what its queue file (or the queue) holds. */
  queued?: HookQueued;
  /** The hook's own queue file (absolute; `index --queue-file`): the run takes that file, not every hook's. */
  queueFile?: string;
  /** Print the {@link EnqueueReport} as JSON instead of the line. */
  json?: boolean;
}

/**
 * `monorag index --from-queue` in the team stack (`queue.kind` bullmq): puts one BullMQ file job per
 * new, changed or removed file among the paths git hooks queued in `<dataDir>/queue/` on the project's
 * queue for `monorag worker`s (every file of the tree when a hook asked for a full run or an ignore-rules
 * file changed, or `index.redactSecrets` no longer matches the index's secret scanner: see
 * `scannerWidensPlan`), then deletes the queue files it read (a failure before the jobs are in Redis
 * leaves them for a later run). It does not wait for the workers, and prints one line on stdout (into
 * the hooks' log).
 * With `queueFile` (a hook's run) it takes that hook's own file, so that when several hooks fire at once
 * each line says what that hook did: `<hook>: queued N path(s); put M file job(s) on <queue> for the
 * workers in T ms`, or `...; another run had already put them on the queue` when its file is gone; other
 * files older than {@link LEFTOVER_QUEUE_MS} (left by failed runs) are taken too, in a plan of their own,
 * and named apart (`; also ... that earlier runs left in the queue: K file job(s)`). Without (hooks
 * installed by an older monorag, or a run by hand) it takes every queue file and says so.
 * @returns the enqueue report (of the hook's own paths when there are), or null when there was nothing to take.
 * @throws MonoragError QUEUE_UNAVAILABLE when Redis (REDIS_URL) does not answer (the queue files stay),
 *   and the errors of {@link runEnqueueCommand}.
 */
export async function runEnqueueFromQueue(project: string | undefined, options: EnqueueFromQueueOptions): Promise<EnqueueReport | null> {
  const started = Date.now();
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const hook = options.hook ?? 'from-queue';
  const own = options.queueFile === undefined ? readPathQueue(context.dataDir) : readQueueFile(options.queueFile);
  const leftover = options.queueFile === undefined ? undefined : readPathQueue(context.dataDir, { minAgeMs: LEFTOVER_QUEUE_MS, except: options.queueFile });
  const queued = options.queued ?? drainedQueued(own);
  const write = (outcome: string): void => {
    if (!options.json) process.stdout.write(hookEnqueueLine(hook, queued, outcome));
  };
  const enqueue = async (paths: QueuedPaths): Promise<EnqueueReport> => {
    const report = await runEnqueueCommand(project, { dataDir: options.dataDir, paths: paths.full ? undefined : paths.paths, silent: true });
    paths.remove();
    return report;
  };
  if (own.entries === 0 && (leftover?.entries ?? 0) === 0) {
    write('another run had already put them on the queue');
    return null;
  }
  let report: EnqueueReport | undefined;
  let outcome = 'another run had already put them on the queue';
  if (own.entries > 0) {
    report = await enqueue(own);
    outcome =
      (options.queueFile === undefined ? `took ${queuedDescription(drainedQueued(own))} queued by every hook run so far and put ` : 'put ') +
      `${report.enqueued} file job(s) on ${report.queue} for the workers in ${Date.now() - started} ms${widenedNote(report)}`;
  }
  if (leftover && leftover.entries > 0) {
    const more = await enqueue(leftover);
    outcome += `; also ${queuedDescription(drainedQueued(leftover))} that earlier runs left in the queue: ${more.enqueued} file job(s)${widenedNote(more)}`;
    report ??= more;
  }
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else write(outcome);
  return report ?? null;
}

/** ` (the whole tree: <reason>)` when a plan given paths covered the whole tree, else ''. */
function widenedNote(report: EnqueueReport): string {
  return report.widened ? ` (the whole tree: ${widenedReason(report.widened)})` : '';
}
