import type { BullmqIndexQueue } from '@monorag/indexer/queue';
import type { ChunkStore } from '@monorag/store';

/**
 * Meta key: the commit that `jobs enqueue` last brought the queue's jobs to ('' outside git). A worker
 * that finds the queue drained records it as the index's commit, since it has then indexed every file
 * that enqueue saw.
 */
export const ENQUEUED_COMMIT_KEY = 'enqueuedCommit';

/**
 * Records the index as up to date (`indexedAt` now, `indexedCommit` from {@link ENQUEUED_COMMIT_KEY})
 * when the queue holds no waiting, active or delayed job: how a worker, which sees one file at a time,
 * tells the index's freshness that a run is complete. Does nothing while jobs remain.
 * @returns whether the queue was drained (and the freshness recorded)
 * @throws the queue's QUEUE_UNAVAILABLE and the store's errors
 */
export async function recordDrainedQueue(queue: Pick<BullmqIndexQueue, 'counts'>, store: Pick<ChunkStore, 'getMeta' | 'setMeta'>): Promise<boolean> {
  const { waiting, active, delayed } = await queue.counts();
  if (waiting + active + delayed > 0) return false;
  await store.setMeta('indexedAt', String(Date.now()));
  const commit = await store.getMeta(ENQUEUED_COMMIT_KEY);
  if (commit !== undefined) await store.setMeta('indexedCommit', commit);
  return true;
}
