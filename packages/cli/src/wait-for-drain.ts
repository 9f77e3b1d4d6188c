import { countNoun } from '@monorag/shared';
import type { BullmqIndexQueue, JobCounts } from '@monorag/indexer/queue';

/** Options of {@link waitForDrain}. */
export interface WaitForDrainOptions {
  queue: BullmqIndexQueue;
  /** Project root, named in the `monorag worker <root>` hint. */
  root: string;
  /** File jobs this run added, named in the first line. */
  enqueued: number;
  /** Where the lines go (each ends with a newline); default stderr. */
  write?: (line: string) => void;
  /** Milliseconds between polls of the job counts and the connected workers; default 250. */
  pollMs?: number;
  /** Milliseconds without a connected worker before the warning; default 3000. */
  noWorkerWarnMs?: number;
}

/**
 * Waits until no job of `queue` is waiting, delayed or active (failed jobs do not block), never in
 * silence: when there is work left it says how many jobs are queued and that it waits for workers,
 * and when no worker has been connected to the queue for `noWorkerWarnMs` it says to start
 * `monorag worker` (again each time all workers have gone). It keeps waiting; Ctrl-C stops it and
 * leaves the jobs queued.
 * @returns the counts once drained.
 * @throws MonoragError QUEUE_UNAVAILABLE when Redis cannot be reached (see {@link BullmqIndexQueue.ready}).
 */
export async function waitForDrain({
  queue,
  root,
  enqueued,
  write = (line) => process.stderr.write(line),
  pollMs = 250,
  noWorkerWarnMs = 3000,
}: WaitForDrainOptions): Promise<JobCounts> {
  let announced = false;
  let noWorkerSince: number | undefined;
  let warned = false;
  for (;;) {
    const counts = await queue.counts();
    const pending = counts.waiting + counts.active + counts.delayed;
    if (pending === 0) return counts;
    if (!announced) {
      write(`monorag: ${countNoun(enqueued, 'file job')} enqueued on ${queue.name}; waiting for \`monorag worker\` processes to index the ${pending} queued (Ctrl-C stops waiting; the jobs stay queued).\n`);
      announced = true;
    }
    if ((await queue.workers()) > 0) {
      noWorkerSince = undefined;
      warned = false;
    } else {
      noWorkerSince ??= Date.now();
      if (!warned && Date.now() - noWorkerSince >= noWorkerWarnMs) {
        write(
          `monorag: warning: no worker is connected to ${queue.name}; start one with \`monorag worker ${root}\` ` +
            '(same REDIS_URL and store settings), here or on another machine. Still waiting.\n',
        );
        warned = true;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
