import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { ErrorCode, MonoragError, type Logger } from '@monorag/shared';
import type { FileJobData, FileJobProgress, FileJobResult } from './file-job.js';
import { indexQueueName } from './file-job.js';
import { createRedisConnection, REDIS_CONNECT_TIMEOUT_MS, waitForRedis, watchConnectionLoss } from './redis-connection.js';
import { logRedisErrors } from './redis-error-log.js';
import { withJobSpan } from './trace-context.js';

/** Options of {@link startBullmqIndexWorker}. */
export interface BullmqIndexWorkerOptions {
  redisUrl: string;
  /** Project key; the worker takes jobs of this project's queue only. */
  project: string;
  /** Does the work of one job, e.g. {@link indexFile} bound to this machine's store and embedder. */
  processFile: (data: FileJobData, reportProgress: (progress: FileJobProgress) => Promise<void>) => Promise<FileJobResult>;
  /** Jobs run at once in this process; default 2. */
  concurrency?: number;
  /**
   * Milliseconds a job's lock lasts (renewed at half that while the job runs); default 30000. A job
   * whose worker died (SIGKILL, lost machine) is found stalled after about this long and handed to
   * another worker, up to twice; after that it fails.
   */
  lockMs?: number;
  /** Milliseconds to wait for Redis at start-up; default {@link REDIS_CONNECT_TIMEOUT_MS}. */
  connectTimeoutMs?: number;
  logger?: Logger;
  /** Called after each job settles (tests, metrics). */
  onJobDone?: (event: { data: FileJobData; result?: FileJobResult; error?: Error }) => void;
}

/**
 * How a worker's close ended: `closed` (gracefully, or at once with `force`), or `redis-unreachable`:
 * Redis was down, or went down while the worker waited for its active jobs, so it stopped without
 * waiting for Redis; its active jobs are taken over by another worker once their locks expire.
 */
export type WorkerCloseOutcome = 'closed' | 'redis-unreachable';

/** A running worker. */
export interface BullmqIndexWorker {
  /**
   * Graceful shutdown: takes no new jobs and waits for the active ones to finish (`force`: returns at
   * once; the active jobs' locks expire and another worker takes them over). Never waits for a Redis
   * that is down (BullMQ's own close would wait until Redis is back): it then drops the connections
   * at once and says so in its outcome.
   */
  close(force?: boolean): Promise<WorkerCloseOutcome>;
}

/**
 * Starts a BullMQ worker on `project`'s file-job queue. Each job runs in a span `index file` that
 * continues the trace of the enqueuing span (context from the job data); progress goes to BullMQ
 * (`job.updateProgress`, seen by QueueEvents listeners). Failures are retried by the queue's backoff,
 * except a CONFIG_INVALID `MonoragError` (a worker configured unlike the enqueuer), which fails the job at
 * once: retrying cannot change the worker's configuration.
 * Once started, a lost Redis connection is retried for ever, with one warning when it is lost and
 * one when it is back (not one per reconnection attempt).
 * @throws MonoragError QUEUE_UNAVAILABLE (naming REDIS_URL and the address) when Redis does not
 *   answer within `connectTimeoutMs` at start-up.
 */
export async function startBullmqIndexWorker({
  redisUrl,
  project,
  processFile,
  concurrency = 2,
  lockMs = 30_000,
  connectTimeoutMs = REDIS_CONNECT_TIMEOUT_MS,
  logger,
  onJobDone,
}: BullmqIndexWorkerOptions): Promise<BullmqIndexWorker> {
  const connection = createRedisConnection(redisUrl);
  try {
    await waitForRedis(connection, redisUrl, connectTimeoutMs);
  } catch (error) {
    connection.disconnect();
    throw error;
  }
  const worker = new Worker<FileJobData, FileJobResult>(
    indexQueueName(project),
    (job: Job<FileJobData, FileJobResult>) =>
      withJobSpan('index file', job.data.trace ?? {}, { 'monorag.project': project, 'monorag.path': job.data.path }, async () => {
        const result = await processFile(job.data, async (progress) => {
          await job.updateProgress(progress as unknown as Record<string, unknown>);
        }).catch((error: unknown) => {
          if (error instanceof MonoragError && error.code === ErrorCode.CONFIG_INVALID) throw new UnrecoverableError(error.message);
          throw error;
        });
        logger?.info({ path: job.data.path, outcome: result.outcome, chunks: result.chunks, job: job.id, attempt: job.attemptsMade + 1 }, 'file job done');
        return result;
      }),
    { connection, concurrency, lockDuration: lockMs, stalledInterval: Math.max(1000, Math.floor(lockMs / 2)), maxStalledCount: 2, autorun: true },
  );
  worker.on('completed', (job, result) => onJobDone?.({ data: job.data, result }));
  worker.on('failed', (job, error) => {
    logger?.warn({ path: job?.data.path, attempt: job?.attemptsMade, error: error.message }, 'file job failed');
    if (job) onJobDone?.({ data: job.data, error });
  });
  worker.on('error', logRedisErrors({ connection, redisUrl, logger, message: 'worker error' }));
  await worker.waitUntilReady();
  /**
   * Drops both connections (this one and BullMQ's blocking one) without a word to Redis, for a close
   * that lost Redis while it waited. BullMQ's disconnect waits for an `end` event that a connection
   * already down may never emit, so it is not awaited: the sockets are closed at once, and the timers
   * of BullMQ's unfinished close lapse within seconds.
   */
  const dropConnections = (): 'redis-unreachable' => {
    connection.disconnect();
    worker.disconnect().catch((error: Error) => logger?.debug({ error: error.message }, 'blocking connection already closed'));
    return 'redis-unreachable';
  };
  return {
    close: async (force = false) => {
      if (connection.status !== 'ready') {
        // Nothing can be handed back to Redis now: a forced close returns at once.
        await worker.close(true);
        connection.disconnect();
        return 'redis-unreachable';
      }
      // BullMQ's close waits for its blocking fetch, which waits for Redis: race it against losing Redis.
      const watch = watchConnectionLoss(connection);
      try {
        const closed = await Promise.race([worker.close(force).then(() => true), watch.lost.then(() => false)]);
        if (!closed) return dropConnections();
      } finally {
        watch.cancel();
      }
      await connection.quit().catch((error: Error) => {
        // Already closed by BullMQ's shutdown; nothing left to release.
        logger?.debug({ error: error.message }, 'redis connection already closed');
      });
      return 'closed';
    },
  };
}
