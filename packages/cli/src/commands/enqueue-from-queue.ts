import { readPathQueue } from '@monorag/indexer';
import { createProjectContext } from '../project-context.js';
import { drainedQueued, queueRunLine, type HookQueued } from '../queue-run-line.js';
import { runEnqueueCommand, widenedReason, type EnqueueReport } from './jobs-command.js';

/** Options of {@link runEnqueueFromQueue}. */
export interface EnqueueFromQueueOptions {
  dataDir?: string;
  /** The git hook that started the run, named in its line; default `from-queue`. */
  hook?: string;
  /** What that hook queued (see `index --queued`); default what the run read from the queue. */
  queued?: HookQueued;
  /** Print the {@link EnqueueReport} as JSON instead of the line. */
  json?: boolean;
}

/**
 * `monorag index --from-queue` in the team stack (`queue.kind` bullmq): reads the paths git hooks
 * queued in `<dataDir>/queue/`, puts one BullMQ file job per new, changed or removed file among them
 * on the project's queue for `monorag worker`s (every file of the tree when a hook asked for a full
 * run or an ignore-rules file changed, or `index.redactSecrets` no longer matches the index's secret
 * scanner: see `scannerWidensPlan`), and then deletes the queue files it read, as an in-process
 * run does once it has indexed them (so a failure before the jobs are in Redis leaves them for the
 * next run). It does not wait for the workers (a worker that drains the queue records the index's
 * freshness), and prints one line on stdout (into the hooks' log): hook, paths enqueued, file jobs, ms.
 * @returns the enqueue report, or null when the queue held nothing (another run took it).
 * @throws MonoragError QUEUE_UNAVAILABLE when Redis (REDIS_URL) does not answer (the queue files stay),
 *   and the errors of {@link runEnqueueCommand}.
 */
export async function runEnqueueFromQueue(project: string | undefined, options: EnqueueFromQueueOptions): Promise<EnqueueReport | null> {
  const started = Date.now();
  const context = createProjectContext({ project, argName: '<path>', overrides: { dataDir: options.dataDir } });
  const hook = options.hook ?? 'from-queue';
  const queued = readPathQueue(context.dataDir);
  if (queued.entries === 0) {
    if (!options.json) process.stdout.write(queueRunLine(hook, options.queued ?? 0, 'already handed to the workers by another run'));
    return null;
  }
  const report = await runEnqueueCommand(project, { dataDir: options.dataDir, paths: queued.full ? undefined : queued.paths, silent: true });
  queued.remove();
  process.stdout.write(
    options.json
      ? `${JSON.stringify(report)}\n`
      : queueRunLine(
          hook,
          options.queued ?? drainedQueued(queued),
          `${report.enqueued} file job(s) queued on ${report.queue} for the workers in ${Date.now() - started} ms` +
            (report.widened ? ` (the whole tree: ${widenedReason(report.widened)})` : ''),
        ),
  );
  return report;
}
