import { addGitExclude, createIndexChunker, currentCommit } from '@monorag/indexer';
import { planFileJobs } from '@monorag/indexer/queue';
import { createProjectEmbedder } from '../embedder-factory.js';
import { createProjectContext, dataDirIgnorePattern, ensureDataDir } from '../project-context.js';
import { deleteProjectStore, openProjectStore } from '../store-factory.js';
import { waitForDrain } from '../wait-for-drain.js';
import { openQueue } from '../open-queue.js';
import { ENQUEUED_COMMIT_KEY } from '../queue-freshness.js';

/** Options of `monorag jobs`. */
export interface JobsCommandOptions {
  project?: string;
  dataDir?: string;
  retry?: boolean;
  json?: boolean;
  limit?: number;
}


/**
 * `monorag jobs`: counts and lists the project's queued (waiting, delayed), active and failed file
 * jobs; `--retry` first moves every failed job back to the queue.
 */
export async function runJobsCommand(options: JobsCommandOptions): Promise<void> {
  const context = createProjectContext({ project: options.project, argName: '--project', overrides: { dataDir: options.dataDir } });
  const queue = openQueue(context);
  try {
    const retried = options.retry ? await queue.retryFailed() : 0;
    const counts = await queue.counts();
    const jobs = await queue.list(['waiting', 'delayed', 'active', 'failed'], options.limit ?? 50);
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ queue: queue.name, counts, retried, jobs })}\n`);
      return;
    }
    const lines = [
      `queue ${queue.name}: ${counts.waiting} waiting, ${counts.delayed} delayed, ${counts.active} active, ${counts.failed} failed` +
        (options.retry ? ` (${retried} failed jobs retried)` : ''),
      ...jobs.map((j) => `  ${j.state.padEnd(8)} ${j.path}  attempts ${j.attemptsMade}${j.failedReason ? `  ${j.failedReason}` : ''}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await queue.close();
  }
}

/** Options of `monorag jobs enqueue`. */
export interface EnqueueCommandOptions {
  dataDir?: string;
  rebuild?: boolean;
  wait?: boolean;
  json?: boolean;
  /** Only these repo-relative paths (a scoped plan, as `index --paths`); default the whole tree. */
  paths?: readonly string[];
  /** Print nothing on stdout (the caller reports the returned {@link EnqueueReport}). */
  silent?: boolean;
}

/** What `monorag jobs enqueue` did. */
export interface EnqueueReport {
  queue: string;
  walked: number;
  unchanged: number;
  enqueued: number;
  /** Counts after the queue drained (with `--wait`). */
  after?: { waiting: number; active: number; delayed: number; failed: number };
  /** Embedding-cache entries pruned once the queue drained (with `--wait`; see `index.cacheRetentionDays`). */
  cachePruned?: number;
}

/**
 * `monorag jobs enqueue [path]`: diffs the tree (or only `paths`) against the configured store's
 * manifest and adds one file job per new, changed or removed file to the project's BullMQ queue for
 * `monorag worker`s.
 * `--wait` waits until the queue is drained (saying so on stderr, and warning when no worker is
 * connected) and then records the indexed commit and time.
 * @throws MonoragError QUEUE_UNAVAILABLE when Redis (REDIS_URL) does not answer, before anything is
 *   changed (`--rebuild` deletes the store only once Redis has answered).
 */
export async function runEnqueueCommand(project: string | undefined, options: EnqueueCommandOptions): Promise<EnqueueReport> {
  const context = createProjectContext({ project, argName: '<path>', overrides: { dataDir: options.dataDir } });
  const queue = openQueue(context);
  let store: Awaited<ReturnType<typeof openProjectStore>> | undefined;
  try {
    await queue.ready();
    ensureDataDir(context);
    const ignorePattern = dataDirIgnorePattern(context);
    if (ignorePattern) await addGitExclude(context.root, ignorePattern);
    const embedder = createProjectEmbedder(context);
    const info = await embedder.info();
    const chunker = await createIndexChunker(embedder, info, context.logger);
    if (options.rebuild) await deleteProjectStore(context);
    store = await openProjectStore(context, { model: info.model, dim: info.dim, chunkerVersion: chunker.version });
    const commit = await currentCommit(context.root);
    const plan = await planFileJobs({
      root: context.root, store, maxFileBytes: context.config.index.maxFileBytes, extraIgnores: ignorePattern ? [ignorePattern] : [], paths: options.paths,
    });
    const report: EnqueueReport = { queue: queue.name, walked: plan.walked, unchanged: plan.unchanged, enqueued: await queue.enqueue(plan.paths) };
    // The commit these jobs bring the index to: a worker that finds the queue drained records it (ENQUEUED_COMMIT_KEY).
    await store.setMeta(ENQUEUED_COMMIT_KEY, commit ?? '');
    if (options.wait) {
      const { waiting, active, delayed, failed } = await waitForDrain({ queue, root: context.root, enqueued: report.enqueued });
      report.after = { waiting, active, delayed, failed };
      await store.setMeta('indexedAt', String(Date.now()));
      await store.setMeta('indexedCommit', commit ?? '');
      report.cachePruned = (await store.pruneEmbeddingCache(context.config.index.cacheRetentionDays * 86_400_000)).removed;
    }
    if (options.silent) return report;
    process.stdout.write(
      options.json
        ? `${JSON.stringify(report)}\n`
        : `queue ${report.queue}: ${report.enqueued} file jobs enqueued (${report.walked} files walked, ${report.unchanged} unchanged)` +
            (report.after ? `; drained, ${report.after.failed} failed (see \`monorag jobs\`)\n` : '\n'),
    );
    return report;
  } finally {
    await queue.close();
    await store?.close();
  }
}
