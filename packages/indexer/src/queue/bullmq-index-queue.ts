import { Queue } from 'bullmq';
import { trace } from '@opentelemetry/api';
import type { Logger } from '@monorag/shared';
import { fileJobId, indexQueueName, type FileJobData } from './file-job.js';
import { createRedisConnection, REDIS_CONNECT_TIMEOUT_MS, waitForRedis } from './redis-connection.js';
import { logRedisErrors } from './redis-error-log.js';
import { circuitSafeBackoffMs } from './retry-schedule.js';
import { injectTraceContext, QUEUE_TRACER } from './trace-context.js';

/** Options of {@link createBullmqIndexQueue}. */
export interface BullmqIndexQueueOptions {
  /** Redis URL, e.g. `redis://redis:6379`. */
  redisUrl: string;
  /** Project key; names the queue (see {@link indexQueueName}). */
  project: string;
  /** Attempts per job before it is kept as failed; default 5. */
  attempts?: number;
  /**
   * First retry delay in ms, doubled on each attempt (BullMQ `exponential` backoff); default
   * {@link circuitSafeBackoffMs}(attempts), so that the retries outlast the embedder's open circuit.
   */
  backoffMs?: number;
  /** Milliseconds to wait for Redis before the first operation fails; default {@link REDIS_CONNECT_TIMEOUT_MS}. */
  connectTimeoutMs?: number;
  logger?: Logger;
}

/** A job as `monorag jobs` lists it. */
export interface JobSummary {
  id: string;
  path: string;
  state: string;
  attemptsMade: number;
  /** Last failure message, for failed jobs. */
  failedReason?: string;
  /** Milliseconds since the epoch when the job was added. */
  timestamp: number;
}

/** Job counts by state. */
export interface JobCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

/** The producer side of the BullMQ indexing queue of one project. */
export interface BullmqIndexQueue {
  readonly name: string;
  /**
   * Resolves once Redis answers; every other operation waits for this first.
   * @throws MonoragError QUEUE_UNAVAILABLE (naming REDIS_URL and the address) when Redis has not
   *   answered within `connectTimeoutMs`; every later operation then throws it too.
   */
  ready(): Promise<void>;
  /**
   * Adds one job per path (job id from project and path: a path whose job is still waiting is not
   * added twice) inside a span `enqueue files` whose context travels in each job's data. A path whose
   * previous job failed is retried. Returns the number of paths handed to the queue.
   */
  enqueue(paths: readonly string[]): Promise<number>;
  counts(): Promise<JobCounts>;
  /**
   * Number of BullMQ workers connected to this queue (Redis `CLIENT LIST`), counting only those on this
   * queue's database: the list is server-wide, and a worker whose URL names another database
   * (`redis://host/1`) takes jobs from another queue of the same name, never from this one.
   */
  workers(): Promise<number>;
  /**
   * Whether the connection to Redis is up now (ioredis status `ready`). After a connection loss, commands
   * wait for the reconnection instead of failing, so a caller that must not block for an outage asks first.
   */
  connected(): boolean;
  /**
   * The Redis server's `run_id` (`INFO server`): a new one means the server restarted, and jobs it did
   * not persist (no RDB/AOF, a failover to a replica behind) are gone without a trace.
   */
  serverRunId(): Promise<string>;
  /** Jobs in the given states, oldest first, at most `limit` per state. */
  list(states: readonly ('waiting' | 'active' | 'delayed' | 'failed')[], limit?: number): Promise<JobSummary[]>;
  /** Moves every failed job back to waiting; returns how many. */
  retryFailed(): Promise<number>;
  /** Resolves when no job is waiting, delayed or active (polling every `pollMs`); failed jobs do not block. */
  drained(pollMs?: number): Promise<JobCounts>;
  close(): Promise<void>;
}

/**
 * The BullMQ queue of `project`'s file jobs. Jobs: `attempts` with exponential backoff; completed jobs
 * are removed (the index is the record of success); failed jobs are kept for `monorag jobs`.
 */
export function createBullmqIndexQueue({
  redisUrl,
  project,
  attempts = 5,
  backoffMs = circuitSafeBackoffMs(attempts),
  connectTimeoutMs = REDIS_CONNECT_TIMEOUT_MS,
  logger,
}: BullmqIndexQueueOptions): BullmqIndexQueue {
  const connection = createRedisConnection(redisUrl);
  const name = indexQueueName(project);
  const queue = new Queue<FileJobData>(name, {
    connection,
    defaultJobOptions: { attempts, backoff: { type: 'exponential', delay: backoffMs }, removeOnComplete: true, removeOnFail: false },
  });
  queue.on('error', logRedisErrors({ connection, redisUrl, logger, message: 'queue error' }));
  let connected: Promise<void> | undefined;
  const ready = (): Promise<void> => (connected ??= waitForRedis(connection, redisUrl, connectTimeoutMs));
  const counts = async (): Promise<JobCounts> => {
    await ready();
    const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
    return { waiting: c.waiting ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0, completed: c.completed ?? 0 };
  };

  return {
    name,
    ready,
    enqueue: async (paths) => {
      await ready();
      return trace.getTracer(QUEUE_TRACER).startActiveSpan('enqueue files', { attributes: { 'monorag.project': project, 'monorag.files': paths.length } }, async (span) => {
        try {
          const carrier = injectTraceContext();
          const ids = new Set<string>();
          for (let i = 0; i < paths.length; i += 500) {
            const jobs = paths.slice(i, i + 500).map((path) => {
              const jobId = fileJobId(project, path);
              ids.add(jobId);
              return { name: 'index-file', data: { project, path, trace: carrier }, opts: { jobId } };
            });
            await queue.addBulk(jobs);
          }
          // A failed job keeps its id, so adding again was a no-op: retry it instead.
          for (const job of await queue.getJobs(['failed'])) {
            if (job.id !== undefined && ids.has(job.id)) await queue.getJob(job.id).then((j) => j?.retry('failed'));
          }
          logger?.info({ queue: name, files: paths.length }, 'file jobs enqueued');
          return paths.length;
        } finally {
          span.end();
        }
      });
    },
    counts,
    workers: async () => {
      await ready();
      const db = connection.options.db ?? 0;
      return (await queue.getWorkers()).filter((client) => client.db === undefined || Number(client.db) === db).length;
    },
    connected: () => connection.status === 'ready',
    serverRunId: async () => {
      await ready();
      const info = await connection.info('server');
      return /^run_id:(\S+)/m.exec(info)?.[1] ?? '';
    },
    list: async (states, limit = 100) => {
      await ready();
      const out: JobSummary[] = [];
      for (const state of states) {
        for (const job of await queue.getJobs([state], 0, limit - 1, true)) {
          out.push({
            id: String(job.id),
            path: job.data.path,
            state,
            attemptsMade: job.attemptsMade,
            ...(job.failedReason ? { failedReason: job.failedReason } : {}),
            timestamp: job.timestamp,
          });
        }
      }
      return out;
    },
    retryFailed: async () => {
      await ready();
      let retried = 0;
      for (const summary of await queue.getJobs(['failed'])) {
        const job = summary.id === undefined ? undefined : await queue.getJob(summary.id);
        if (job) {
          await job.retry('failed');
          retried++;
        }
      }
      return retried;
    },
    drained: async (pollMs = 250) => {
      for (;;) {
        const c = await counts();
        if (c.waiting + c.active + c.delayed === 0) return c;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
    close: async () => {
      if (connection.status !== 'ready') {
        // Never connected (or lost): quit would wait for Redis, so drop the connection at once.
        connection.disconnect();
        await queue.close();
        return;
      }
      await queue.close();
      await connection.quit();
    },
  };
}
