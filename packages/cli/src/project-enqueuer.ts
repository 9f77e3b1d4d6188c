import { ErrorCode, MonoragError } from '@monorag/shared';
import { createIgnoreFilter, createIndexChunker, runScope, type IgnoreFilter } from '@monorag/indexer';
import { redisAddress, type BullmqIndexQueue } from '@monorag/indexer/queue';
import type { ChunkStore } from '@monorag/store';
import { widenedReason } from './commands/jobs-command.js';
import { createProjectEmbedder } from './embedder-factory.js';
import { enqueueFileJobs, type FileJobsReport } from './enqueue-file-jobs.js';
import { openQueue } from './open-queue.js';
import { dataDirIgnorePattern, type ProjectContext } from './project-context.js';
import { prepareDataDir } from './prepare-data-dir.js';
import { openProjectStore } from './store-factory.js';
import type { WatchRunner } from './watch-project.js';

/** What one run of a {@link ProjectEnqueuer} did: the plan and its jobs, no indexing. */
export interface EnqueueRun extends FileJobsReport {
  /** `full` when the whole tree was planned (no paths, an ignore-rules file among them, or `widened`), else `paths`. */
  mode: 'full' | 'paths';
  /** Wall time of the plan and the enqueue, in ms. */
  durationMs: number;
  /** Workers connected to the queue after the jobs were added (not asked, and 0, when no job was added). */
  workers: number;
}

/**
 * A project's updates in queue mode (`queue.kind` bullmq): each run plans and enqueues file jobs for
 * `monorag worker`s, as `monorag index` does there; nothing is chunked or embedded in this process and
 * the index lock is never taken. What `watch`, `serve` and `gateway` run on file events.
 */
export interface ProjectEnqueuer {
  /** The project's queue (kept open for the enqueuer's life). */
  readonly queue: BullmqIndexQueue;
  /** The configured store, opened with the index identity (created when missing), whose manifest the plans diff against. */
  readonly store: ChunkStore;
  /** The ignore rules a watcher follows (the plans walk with their own). */
  filter: IgnoreFilter;
  /**
   * Plans and enqueues the file jobs of `paths` (repo-relative), or of the whole tree when undefined
   * (see `enqueueFileJobs`); the first run after which no worker is connected warns, once until a worker is seen again.
   * @throws MonoragError QUEUE_UNAVAILABLE when Redis does not answer, at once when the connection is down; the store's errors.
   */
  run(paths?: readonly string[]): Promise<EnqueueRun>;
  close(): Promise<void>;
}

/** Options of {@link openProjectEnqueuer}. */
export interface ProjectEnqueuerOptions {
  /**
   * Where the warning goes that jobs were enqueued but no worker is connected (one line, no newline);
   * default the context's logger at warn.
   */
  warn?: (message: string) => void;
}

/**
 * Opens a project for queue-mode updates: the queue (waiting for Redis first, so that a Redis that does
 * not answer fails before anything is created), the data directory (added to `.git/info/exclude` when it
 * lies in the project), the embedder's identity (model and dimension, cached in `model.json` by the managed
 * embedder, so nothing is embedded) and the store opened with it, as `monorag jobs enqueue` does.
 * @throws MonoragError QUEUE_UNAVAILABLE, `CONFIG_INVALID` (no Redis URL), `EMBEDDER_UNAVAILABLE`,
 *   `INDEX_IDENTITY_MISMATCH`, and the store's errors.
 */
export async function openProjectEnqueuer(context: ProjectContext, { warn }: ProjectEnqueuerOptions = {}): Promise<ProjectEnqueuer> {
  const queue = await openQueue(context);
  let store: ChunkStore;
  const ignorePattern = dataDirIgnorePattern(context);
  try {
    await queue.ready();
    await prepareDataDir(context);
    const embedder = createProjectEmbedder(context);
    const info = await embedder.info();
    const chunker = await createIndexChunker(embedder, info, context.logger);
    store = await openProjectStore(context, { model: info.model, dim: info.dim, chunkerVersion: chunker.version });
  } catch (error) {
    await queue.close();
    throw error;
  }
  const filter = createIgnoreFilter({ root: context.root, extraIgnores: ignorePattern ? [ignorePattern] : [] });
  const warnNoWorker = warn ?? ((message: string) => context.logger.warn(message));
  let warned = false;
  return {
    queue,
    store,
    filter,
    async run(paths) {
      // Connected once, Redis then lost: the plan's commands would wait for it to come back (a `sync_index`
      // waiting for the whole outage). Fail now; the watcher retries with backoff.
      if (!queue.connected()) {
        throw new MonoragError(
          ErrorCode.QUEUE_UNAVAILABLE,
          `The connection to Redis (${redisAddress(context.config.queue.redisUrl ?? '')}) is lost, so no file job can be enqueued now; the changes are enqueued once it is back.`,
        );
      }
      const started = Date.now();
      const { report } = await enqueueFileJobs({ context, store, queue, paths });
      const workers = report.enqueued > 0 ? await queue.workers() : 0;
      if (report.enqueued > 0) {
        if (workers > 0) warned = false;
        else if (!warned) {
          warnNoWorker(
            `no worker is connected to ${queue.name}; start one with \`monorag worker ${context.root}\` (same REDIS_URL and store settings), ` +
              'here or on another machine. The file jobs stay queued until one runs.',
          );
          warned = true;
        }
      }
      const mode = report.widened || runScope(paths) === undefined ? 'full' : 'paths';
      return { ...report, mode, durationMs: Date.now() - started, workers };
    },
    async close() {
      await queue.close();
      await store.close();
    },
  };
}

/**
 * The line `monorag watch` prints after a queue-mode run: time, mode, file jobs enqueued and on which
 * queue, what the plan walked, and ms (then the whole-tree reason when a path plan was widened). Ends with a newline.
 */
export function enqueueRunLine(run: EnqueueRun): string {
  return (
    `${new Date().toISOString()} ${run.mode} update: ${run.enqueued} file job(s) enqueued for the workers on queue ${run.queue} ` +
    `(${run.walked} walked, ${run.unchanged} unchanged${run.rescan > 0 ? `, ${run.rescan} scanned again for secrets` : ''}), ${run.durationMs} ms` +
    (run.widened ? `; the whole tree: ${widenedReason(run.widened)}` : '') +
    '\n'
  );
}

/** The {@link WatchRunner} of a queue-mode watch: each run enqueues; the hooks' queued paths are left to the hooks' own runs. */
export function enqueuerRunner(enqueuer: ProjectEnqueuer): WatchRunner<EnqueueRun> {
  return { filter: enqueuer.filter, takesHookQueue: false, run: (paths) => enqueuer.run(paths) };
}
