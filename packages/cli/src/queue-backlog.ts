import { indexQueueName, type BullmqIndexQueue } from '@monorag/indexer/queue';
import type { QueueBacklog } from '@monorag/retriever';
import { errorMessage } from '@monorag/shared';
import { openQueue } from './open-queue.js';
import type { ProjectContext } from './project-context.js';
import { projectKey } from './project-key.js';

/**
 * How long a freshness read waits for Redis, in ms: 2 s. Freshness rides on every search and status;
 * a Redis that does not answer (ioredis queues commands while it reconnects) must cost them a bounded
 * wait and a line in the warning, not the answer.
 */
export const BACKLOG_TIMEOUT_MS = 2_000;

/** At most this many job paths are read per job state to tell queued work-tree changes from unqueued ones. */
const MAX_LISTED_JOBS = 1_000;

/** What {@link QueueBacklogReader.read} gives. */
export interface QueueBacklogRead {
  backlog: QueueBacklog;
  /** With `withPaths`: the paths of waiting, delayed and active jobs (at most 1,000 per state); else empty. */
  queuedPaths: ReadonlySet<string>;
}

/** Reads the file-job queue's backlog for the index's freshness (see `readIndexFreshness`). */
export interface QueueBacklogReader {
  /**
   * The backlog (jobs waiting, delayed or active; failed; connected workers), or null with the in-process
   * queue (`queue.kind` memory). Never throws: when Redis does not answer within `timeoutMs` (or no Redis
   * URL is configured) the backlog carries the reason in `error` and zero counts, and the next read connects anew.
   * @param withPaths also list the queued jobs' paths (costs a read per job; only without a file watcher).
   */
  read(withPaths?: boolean): Promise<QueueBacklogRead | null>;
  /** Closes the queue connection, if one was opened. */
  close(): Promise<void>;
}

/** Options of {@link createQueueBacklogReader}. */
export interface QueueBacklogReaderOptions {
  /** Longest wait for Redis per read, in ms; default {@link BACKLOG_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/**
 * The {@link QueueBacklogReader} of a project: connects to its queue (`openQueue`) on the first read and
 * keeps the connection until `close`.
 */
export function createQueueBacklogReader(context: ProjectContext, { timeoutMs = BACKLOG_TIMEOUT_MS }: QueueBacklogReaderOptions = {}): QueueBacklogReader {
  if (context.config.queue.kind !== 'bullmq') return { read: async () => null, close: async () => undefined };
  let opened: Promise<BullmqIndexQueue> | undefined;
  const drop = async (): Promise<void> => {
    const queue = opened;
    opened = undefined;
    await queue?.then(
      (q) => q.close(),
      // openQueue failed (no Redis URL): nothing was opened, nothing to close.
      () => undefined,
    );
  };
  const readQueue = async (queue: BullmqIndexQueue, withPaths: boolean): Promise<QueueBacklogRead> => {
    const [counts, workers] = await Promise.all([queue.counts(), queue.workers()]);
    const jobs = counts.waiting + counts.delayed + counts.active;
    const listed = withPaths && jobs > 0 ? await queue.list(['waiting', 'delayed', 'active'], MAX_LISTED_JOBS) : [];
    return {
      backlog: { name: queue.name, jobs, active: counts.active, failed: counts.failed, workers, error: null },
      queuedPaths: new Set(listed.map((job) => job.path)),
    };
  };
  return {
    async read(withPaths = false) {
      let name: string | undefined;
      try {
        opened ??= openQueue(context);
        const queue = await opened;
        name = queue.name;
        return await withTimeout(readQueue(queue, withPaths), timeoutMs, `Redis did not answer within ${timeoutMs / 1000} s`);
      } catch (error) {
        await drop();
        name ??= indexQueueName(await projectKey(context));
        return { backlog: { name, jobs: 0, active: 0, failed: 0, workers: 0, error: errorMessage(error) }, queuedPaths: new Set() };
      }
    },
    close: drop,
  };
}

/** `promise`, or a rejection with `message` after `ms`; a later rejection of `promise` is then ignored. */
function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  // Past the time-out nobody awaits `promise`: its rejection (the connection closed under it) is expected.
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
