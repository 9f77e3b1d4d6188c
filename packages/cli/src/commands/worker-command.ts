import { checkWorkerScanner, indexFile, redisAddress, startBullmqIndexWorker } from '@monorag/indexer/queue';
import { createProjectEmbedder } from '../embedder-factory.js';
import { createProjectContext, dataDirIgnorePattern, ensureDataDir, refuseNestedProject, type ProjectContext } from '../project-context.js';
import { projectKey } from '../project-key.js';
import { openProjectStore, redisUrlOf } from '../store-factory.js';
import { openQueue } from '../open-queue.js';
import { recordDrainedQueue } from '../queue-freshness.js';
import { createIgnoreFilter, createIndexChunker, secretScannerOf } from '@monorag/indexer';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { DUPLICATE_SIGNAL_MS } from '../duplicate-signal.js';
import { followIndexFile, type FollowedStore } from '../follow-index-file.js';

/** Options of `monorag worker`. */
export interface WorkerCommandOptions {
  dataDir?: string;
  concurrency?: number;
}

/** What a running worker command exposes (tests stop it without signals). */
export interface RunningWorker {
  /** Resolves when the worker has shut down. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Checks that the project is set up for queue workers before anything else: with no Redis configured
 * and the default queue (`queue.kind` "memory"), which indexes in-process, there is nothing to serve.
 * With a Redis URL the worker serves the BullMQ queue whatever `queue.kind` says (`monorag jobs enqueue`
 * fills it), and `queue.kind` "bullmq" without one gets the queue's own `needs Redis` error.
 * @throws MonoragError `CONFIG_INVALID` saying that workers serve the BullMQ queue (`queue.kind` "bullmq",
 *   env `MONORAG_QUEUE=bullmq`, with `REDIS_URL`) and that the default indexes in-process (`monorag index`/`watch`).
 */
function requireQueueOfWorkers({ config, root }: ProjectContext): void {
  if (config.queue.kind === 'bullmq' || config.queue.redisUrl !== undefined) return;
  throw new MonoragError(
    ErrorCode.CONFIG_INVALID,
    '`monorag worker` takes file jobs from the BullMQ queue of the team stack, which needs Redis: set queue.kind "bullmq" and a Redis URL ' +
      '(MONORAG_QUEUE=bullmq and REDIS_URL=redis://host:6379, or "queue": {"kind": "bullmq", "redisUrl": ...} in monorag.json) here and for whoever enqueues. ' +
      `${root} uses the default queue (queue.kind "${config.queue.kind}"), which indexes in-process without workers: ` +
      `run \`monorag index ${root}\` instead (or \`monorag watch ${root}\` to keep the index up to date).`,
  );
}

/**
 * `monorag worker [path]`: takes file jobs of the project's BullMQ queue (Redis at REDIS_URL) and
 * indexes each under this checkout into the configured store, `queue.concurrency` jobs at a time.
 * SIGINT / SIGTERM stop it gracefully: no new jobs, active ones finish; a second signal forces (a repeat
 * within `DUPLICATE_SIGNAL_MS`, 2 s, is the same request relayed, and ignored). With
 * Redis down (or lost during the stop) it stops at once without waiting for Redis, saying so in one
 * line on stderr.
 * After each job, a worker that finds the queue drained records the index's freshness (`indexedAt`,
 * and the commit `jobs enqueue` saw), so `status` and search footers know the run is complete, and the
 * secret scanner the last whole-tree enqueue planned for as the index's `secretScanner`, unless failed
 * jobs remain or this worker redacts with another (`recordDrainedQueue`; it warns why). Until then, each
 * job on an unchanged file scans it again for secrets (`indexFile`).
 * @throws MonoragError, before anything is created: INVALID_ARGUMENT when the path lies inside another
 *   project and has no data directory yet (`refuseNestedProject`); CONFIG_INVALID when neither
 *   `queue.kind` "bullmq" nor a Redis URL is configured (the default queue has no workers);
 *   QUEUE_UNAVAILABLE when Redis (REDIS_URL) does not answer at start-up (within the 5 s connect timeout)
 *   or refuses the connection. Then the embedder's and the store's errors; CONFIG_INVALID when its
 *   `index.redactSecrets` does not fit the secret scanner the index stands on (`checkWorkerScanner`),
 *   before it takes a job.
 */
export async function runWorkerCommand(project: string | undefined, options: WorkerCommandOptions): Promise<RunningWorker> {
  const context = createProjectContext({
    project,
    argName: '[path]',
    overrides: { dataDir: options.dataDir, queue: { concurrency: options.concurrency } },
  });
  const { logger, config } = context;
  // Before the queue settings: a subdirectory does not see the project's monorag.json.
  refuseNestedProject(context, 'worker');
  requireQueueOfWorkers(context);
  const key = await projectKey(context);
  // Redis first: with Redis down the worker fails with QUEUE_UNAVAILABLE before it creates the data
  // directory, contacts (or starts) the embedder or opens the store.
  const queue = await openQueue(context);
  let opened: FollowedStore;
  let chunker: Awaited<ReturnType<typeof createIndexChunker>>;
  let embedder: ReturnType<typeof createProjectEmbedder>;
  try {
    await queue.ready();
    ensureDataDir(context);
    embedder = createProjectEmbedder(context);
    const info = await embedder.info();
    chunker = await createIndexChunker(embedder, info, logger);
    const identity = { model: info.model, dim: info.dim, chunkerVersion: chunker.version };
    const first = await openProjectStore(context, identity);
    // A worker set up unlike the index would only take jobs to fail them: it does not start.
    await checkWorkerScanner(first, config.index.redactSecrets, context.root).catch(async (error: unknown) => {
      await first.close();
      throw error;
    });
    // A rebuild by another process replaces (or, with `jobs enqueue --rebuild`, deletes) the index file:
    // each job and each freshness record first follows it, or they would go into the unlinked file.
    opened = followIndexFile(context, first, { open: () => openProjectStore(context, identity), reopenMissing: true });
  } catch (error) {
    await queue.close();
    throw error;
  }
  const { store, follow } = opened;
  const scanner = secretScannerOf(config.index.redactSecrets);
  const ignorePattern = dataDirIgnorePattern(context);
  /** Freshness records in flight, one after another; `stop` waits for them before closing the store. */
  let recording = Promise.resolve();
  const recordIfDrained = (): void => {
    recording = recording
      .then(() => follow())
      .then(() => recordDrainedQueue(queue, store, scanner))
      .then(
        (drained) => {
          if (!drained) return;
          logger.info({ failed: drained.failed, secretScanner: drained.secretScanner }, 'queue drained; index freshness recorded');
          if (drained.secretScanner === 'failed-jobs') {
            logger.warn(
              { failed: drained.failed },
              'secret scanner not recorded: failed jobs remain, whose files may still hold text redacted otherwise; the next `monorag jobs enqueue` scans unchanged files again (`monorag jobs --retry` runs the failed ones)',
            );
          } else if (drained.secretScanner === 'scanner-differs') {
            logger.warn({ scanner }, 'secret scanner not recorded: this worker redacts with another scanner than the last whole-tree enqueue planned for; give workers and enqueuer the same index.redactSecrets');
          }
        },
        (error: Error) => logger.warn({ error: error.message }, 'could not record the index freshness after a job'),
      );
  };
  const worker = await startBullmqIndexWorker({
    redisUrl: redisUrlOf(context),
    project: key,
    concurrency: config.queue.concurrency,
    lockMs: config.queue.lockSeconds * 1000,
    logger,
    processFile: async (data, reportProgress) => {
      await follow();
      return indexFile({
        root: context.root, path: data.path, store, chunker, embedder, maxFileBytes: config.index.maxFileBytes, redactSecrets: config.index.redactSecrets,
        // Read anew for each job (the rule files along one path): a rule added since the worker started
        // leaves the file out, and its job removes it from the index.
        filter: createIgnoreFilter({ root: context.root, extraIgnores: ignorePattern ? [ignorePattern] : [] }),
        onProgress: reportProgress,
      });
    },
    onJobDone: recordIfDrained,
  }).catch(async (error: unknown) => {
    await queue.close();
    await store.close();
    throw error;
  });
  process.stderr.write(`monorag worker: project ${key}, concurrency ${config.queue.concurrency}, store ${config.store.kind}; Ctrl-C stops after the active jobs.\n`);

  let stopping: Promise<void> | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const stop = (force = false): Promise<void> => {
    if (stopping && !force) return stopping;
    stopping = (async () => {
      if ((await worker.close(force)) === 'redis-unreachable') {
        process.stderr.write(
          `monorag worker: Redis at ${redisAddress(redisUrlOf(context))} is unreachable; stopped without waiting for it ` +
            `(jobs this worker had active are taken over by another worker after queue.lockSeconds, ${config.queue.lockSeconds} s).\n`,
        );
        // A freshness record in flight waits for Redis: closing the queue first ends its commands.
        await queue.close();
        await recording;
      } else {
        await recording;
        await queue.close();
      }
      await store.close();
      // The signal listeners stay: with none left, a relayed copy of the signal that stopped the worker
      // (tsx, pnpm, a group-wide kill) would kill the process (exit 143) on its way out.
      resolveDone();
    })();
    return stopping;
  };
  let firstSignalAt: number | undefined;
  const onSignal = (): void => {
    // One Ctrl-C heard twice (the group's signal, then tsx's or pnpm's relay) is one request to stop gracefully.
    if (firstSignalAt !== undefined && Date.now() - firstSignalAt < DUPLICATE_SIGNAL_MS) return;
    firstSignalAt ??= Date.now();
    const force = stopping !== undefined;
    process.stderr.write(force ? 'monorag worker: forced stop\n' : 'monorag worker: stopping after the active jobs\n');
    stop(force).catch((error: Error) => logger.error({ error: error.message }, 'worker shutdown failed'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { done, stop: () => stop(false) };
}
