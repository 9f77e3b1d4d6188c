import { countNoun } from '@monorag/shared';
import { createIndexChunker } from '@monorag/indexer';
import { createProjectEmbedder } from '../embedder-factory.js';
import { enqueueFileJobs, type FileJobsReport } from '../enqueue-file-jobs.js';
import { createProjectContext } from '../project-context.js';
import { prepareDataDir } from '../prepare-data-dir.js';
import { rebuildProjectStore, openProjectStore } from '../store-factory.js';
import { waitForDrain } from '../wait-for-drain.js';
import { openQueue } from '../open-queue.js';
import { recordDrain, type DrainRecord } from '../queue-freshness.js';
import { warnPathArguments } from '../path-warnings.js';

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
  const queue = await openQueue(context);
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

/** What `monorag jobs enqueue` did: the plan and its jobs ({@link FileJobsReport}), and with `--wait` what followed. */
export interface EnqueueReport extends FileJobsReport {
  /** Counts after the queue drained (with `--wait`). */
  after?: { waiting: number; active: number; delayed: number; failed: number };
  /** Embedding-cache entries pruned once the queue drained (with `--wait`; see `index.cacheRetentionDays`). */
  cachePruned?: number;
  /** With `--wait`: whether the index's secret scanner was recorded once the queue drained, or why not (see {@link DrainRecord}). */
  secretScanner?: DrainRecord['secretScanner'];
  /**
   * With `--wait`: file jobs enqueued again because Redis restarted during the wait (a new `run_id`) and
   * lost them (planned anew from the index, so jobs a worker finished are not repeated); absent when none.
   */
  requeued?: number;
}

/**
 * `monorag jobs enqueue [path]`: diffs the tree (or only `paths`) against the configured store's
 * manifest and adds one file job per new, changed or removed file to the project's BullMQ queue for
 * `monorag worker`s; when the index was written with another secret scanner than `index.redactSecrets`
 * gives, one per unchanged file too, which the workers scan again (see `planFileJobs`). It records the
 * commit, and for a whole-tree plan the scanner, that the jobs bring the index to (`recordEnqueued`),
 * and records the index as up to date when the queue is already drained (see `enqueueFileJobs`).
 * `--wait` waits until the queue is drained (saying so on stderr, and warning when no worker is
 * connected; when Redis restarted meanwhile and lost jobs, planning and enqueueing again, up to three times) and then records the indexed commit and time, and the secret scanner unless failed jobs
 * remain (`recordDrain`, as the worker that drains the queue does).
 * @throws MonoragError QUEUE_UNAVAILABLE when Redis (REDIS_URL) does not answer, before anything is
 *   changed (`--rebuild` deletes the store only once Redis has answered, and says on stderr that searches
 *   find only what the workers have indexed again until the queue drains).
 */
export async function runEnqueueCommand(project: string | undefined, options: EnqueueCommandOptions): Promise<EnqueueReport> {
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const queue = await openQueue(context);
  let store: Awaited<ReturnType<typeof openProjectStore>> | undefined;
  try {
    await queue.ready();
    await prepareDataDir(context);
    const embedder = createProjectEmbedder(context);
    const info = await embedder.info();
    const chunker = await createIndexChunker(embedder, info, context.logger);
    const identity = { model: info.model, dim: info.dim, chunkerVersion: chunker.version };
    if (options.rebuild) {
      // Unlike the in-process `index --rebuild`, which builds beside the old index and swaps it in when
      // done, the queue's rebuild starts from an empty index that the workers fill job by job; a SQLite
      // index keeps its embedding cache, so only chunk texts it never embedded go to the model.
      const { carried, reason } = await rebuildProjectStore(context, identity);
      const cache = carried !== null
        ? ` (${carried} cached embeddings carried over)`
        : reason !== undefined
          ? ` (the old embedding cache could not be read: ${reason})`
          : context.config.store.kind === 'qdrant' ? ' (the embedding cache went with the collection)' : '';
      process.stderr.write(
        `monorag: --rebuild with the team queue started the index anew${cache}; searches find only what the workers have indexed again until the queue drains.\n`,
      );
    }
    store = await openProjectStore(context, identity);
    // `index --paths` with the team queue: the same warnings as an in-process run (the hooks' runs are silent).
    if (options.paths && !options.silent) warnPathArguments(context, options.paths, await store.listFiles());
    // Taken before the jobs are added: a restart from here on can lose them.
    let runId = options.wait ? await queue.serverRunId() : '';
    const { report: planned, scanner } = await enqueueFileJobs({ context, store, queue, paths: options.paths });
    const report: EnqueueReport = planned;
    if (options.wait) {
      let counts = await waitForDrain({ queue, root: context.root, enqueued: report.enqueued });
      // Redis restarted during the wait (a new run_id): jobs it did not persist are gone and no worker will
      // run them, yet the queue reads as drained. The plan, made from the index, says what is still to do.
      for (let round = 0; round < 3; round++) {
        const now = await queue.serverRunId();
        if (now === runId) break;
        runId = now;
        const { report: again } = await enqueueFileJobs({ context, store, queue, paths: options.paths });
        if (again.enqueued === 0) break;
        report.requeued = (report.requeued ?? 0) + again.enqueued;
        process.stderr.write(
          `monorag: Redis restarted while this run waited (its run_id changed) and lost ${again.enqueued} file job(s) the workers had not done; enqueued them again.\n`,
        );
        counts = await waitForDrain({ queue, root: context.root, enqueued: again.enqueued });
      }
      const { waiting, active, delayed, failed } = counts;
      report.after = { waiting, active, delayed, failed };
      report.secretScanner = (await recordDrain(counts, store, scanner)).secretScanner;
      report.cachePruned = (await store.pruneEmbeddingCache(context.config.index.cacheRetentionDays * 86_400_000)).removed;
    }
    if (options.silent) return report;
    process.stdout.write(
      options.json
        ? `${JSON.stringify(report)}\n`
        : `queue ${report.queue}: ${countNoun(report.enqueued, 'file job')} enqueued (${countNoun(report.walked, 'file')} walked, ${report.unchanged} unchanged` +
            (report.leftOut > 0 ? `, ${report.leftOut} left out as generated code or a private key` : '') +
            (report.rescan > 0 ? `, ${report.rescan} unchanged but scanned again for secrets: the index was written with another secret scanner` : '') +
            ')' +
            (report.widened ? `; the whole tree, not the given paths: ${widenedReason(report.widened)}` : '') +
            (report.after ? `; drained, ${report.after.failed} failed (see \`monorag jobs\`)${scannerNote(report.secretScanner)}\n` : '\n'),
    );
    return report;
  } finally {
    await queue.close();
    await store?.close();
  }
}

/** Why a plan given paths covered the whole tree (see {@link EnqueueReport.widened}). */
export function widenedReason({ scanner, standing }: NonNullable<EnqueueReport['widened']>): string {
  return `index.redactSecrets gives secret scanner ${scanner}, the index was redacted with ${standing}`;
}

/** What the `--wait` line says when the index's secret scanner was not recorded ('' when it was, or none was enqueued). */
function scannerNote(outcome: DrainRecord['secretScanner'] | undefined): string {
  if (outcome === 'failed-jobs') return '; the secret scanner is recorded only once no job has failed, so the next enqueue scans unchanged files again';
  if (outcome === 'scanner-differs') return '; the secret scanner is not recorded: the last whole-tree enqueue planned for another index.redactSecrets';
  return '';
}
