import { REQUIRED_SCANNER_META, SECRET_SCANNER_META } from '@monorag/indexer';
import type { BullmqIndexQueue, JobCounts } from '@monorag/indexer/queue';
import type { ChunkStore } from '@monorag/store';

/**
 * Meta key: the commit that `jobs enqueue` last brought the queue's jobs to ('' outside git). A worker
 * that finds the queue drained records it as the index's commit, since it has then indexed every file
 * that enqueue saw.
 */
export const ENQUEUED_COMMIT_KEY = 'enqueuedCommit';

/**
 * Meta key: the secret scanner (`secretScannerOf(index.redactSecrets)`: `SECRET_SCANNER_ID` or `off`)
 * that the last whole-tree `jobs enqueue` brought the queue's jobs to. Once the queue has drained with
 * no failed job, it is recorded as the index's `secretScanner` ({@link SECRET_SCANNER_META}).
 */
export const ENQUEUED_SCANNER_KEY = 'enqueuedSecretScanner';

/**
 * Meta key: when the earliest plan whose jobs have not all been done yet began to walk the tree (ms since
 * the Unix epoch; '' once a drain has recorded it). The drain records it as the index's `indexedAt`, as an
 * in-process run records its start: a file saved after the walk, while the jobs wait, is then newer than
 * the index and counts as pending (recording the drain's own time hid it).
 */
export const ENQUEUED_AT_KEY = 'enqueuedAt';

/**
 * Before a whole-tree plan's jobs are added: records `scanner` as the one every worker must redact with
 * ({@link REQUIRED_SCANNER_META}); a worker with another `index.redactSecrets` then refuses each job
 * (`indexFile` throws CONFIG_INVALID, the queue fails it at once), so a drain with no failed job means every
 * planned file was scanned with `scanner`.
 * @throws the store's errors
 */
export async function requireScanner(store: Pick<ChunkStore, 'setMeta'>, scanner: string): Promise<void> {
  await store.setMeta(REQUIRED_SCANNER_META, scanner);
}

/**
 * Whether a plan limited to paths (a git hook's run) must cover the whole tree instead, because
 * `scanner` (this process's `index.redactSecrets`) differs from the scanner the index stands on: the
 * one workers are required to use ({@link REQUIRED_SCANNER_META}), else the one it was last completely
 * redacted with ({@link SECRET_SCANNER_META}). A path-limited plan neither requires nor records a scanner,
 * so after the setting changed its jobs would fail on every worker restarted with the new setting
 * (CONFIG_INVALID) and the unchanged files would stay scanned the old way. Returns the standing scanner
 * when the plan must widen, undefined when it need not (also when the index records neither, as one built
 * before scanners were recorded: the next whole-tree enqueue re-scans it).
 * @throws the store's errors
 */
export async function scannerWidensPlan(store: Pick<ChunkStore, 'getMeta'>, scanner: string): Promise<string | undefined> {
  const standing = (await store.getMeta(REQUIRED_SCANNER_META)) ?? (await store.getMeta(SECRET_SCANNER_META));
  return standing !== undefined && standing !== scanner ? standing : undefined;
}

/** What {@link recordEnqueued} records. */
export interface EnqueuedRun {
  /** HEAD when the plan was made, or null outside git. */
  commit: string | null;
  /**
   * The scanner the planned jobs bring the index to (`FileJobPlan.scanner`); only a plan of the whole
   * tree may give it, since a plan limited to paths re-scans only the files under them.
   */
  scanner?: string;
  /** When the plan began to walk the tree (ms since the Unix epoch); kept unless an earlier plan's is still waiting for its drain ({@link ENQUEUED_AT_KEY}). */
  plannedAt?: number;
}

/**
 * Records what the jobs `jobs enqueue` has just put on the queue bring the index to, for the process that
 * finds the queue drained ({@link recordDrainedQueue}): the commit, and the secret scanner when given.
 * Call it after the jobs are on the queue, so that a drain seen before they were added records the previous values.
 * @throws the store's errors
 */
export async function recordEnqueued(store: Pick<ChunkStore, 'getMeta' | 'setMeta'>, { commit, scanner, plannedAt }: EnqueuedRun): Promise<void> {
  await store.setMeta(ENQUEUED_COMMIT_KEY, commit ?? '');
  if (plannedAt !== undefined && !(await store.getMeta(ENQUEUED_AT_KEY))) await store.setMeta(ENQUEUED_AT_KEY, String(plannedAt));
  if (scanner !== undefined) await store.setMeta(ENQUEUED_SCANNER_KEY, scanner);
}

/** What a record of a drained queue did about the index's secret scanner ({@link SECRET_SCANNER_META}). */
export interface DrainRecord {
  /** Failed jobs kept in the queue (`monorag jobs` lists them, `--retry` runs them again). */
  failed: number;
  /**
   * `recorded`: the index's scanner is now the enqueued one (written now, or it already was);
   * `failed-jobs`: left as it was, since failed jobs remain whose files may still hold text of the old
   * scanner (the next whole-tree enqueue plans the re-scan again);
   * `scanner-differs`: left as it was, since the recording process redacts with another scanner than
   * the enqueued one (workers and enqueuer disagree on `index.redactSecrets`);
   * `not-enqueued`: left as it was, since no whole-tree enqueue recorded a scanner.
   */
  secretScanner: 'recorded' | 'failed-jobs' | 'scanner-differs' | 'not-enqueued';
}

/**
 * Records the index as up to date (`indexedAt` when the plan began, `indexedCommit` from {@link ENQUEUED_COMMIT_KEY})
 * when the queue holds no waiting, active or delayed job: how a worker, which sees one file at a time,
 * tells the index's freshness that a run is complete. Does nothing while jobs remain. The index's secret
 * scanner is set as {@link recordDrain} says.
 * @param scanner the scanner the recording process redacts with (`secretScannerOf(index.redactSecrets)`).
 * @returns null while jobs remain, else what was recorded
 * @throws the queue's QUEUE_UNAVAILABLE and the store's errors
 */
export async function recordDrainedQueue(
  queue: Pick<BullmqIndexQueue, 'counts'>,
  store: Pick<ChunkStore, 'getMeta' | 'setMeta'>,
  scanner: string,
): Promise<DrainRecord | null> {
  const counts = await queue.counts();
  if (counts.waiting + counts.active + counts.delayed > 0) return null;
  return recordDrain(counts, store, scanner);
}

/**
 * Records a drained queue, whose counts (`queue.counts()` once nothing waits, runs or is delayed) are
 * `counts`: `indexedAt` from {@link ENQUEUED_AT_KEY} (now when no plan recorded one), `indexedCommit` from {@link ENQUEUED_COMMIT_KEY}, and the enqueued secret
 * scanner ({@link ENQUEUED_SCANNER_KEY}) as the index's `secretScanner` only when no failed job remains
 * and `scanner` (the recording process's) is the enqueued one; failed jobs do not hold the freshness back.
 * @throws the store's errors
 */
export async function recordDrain(counts: Pick<JobCounts, 'failed'>, store: Pick<ChunkStore, 'getMeta' | 'setMeta'>, scanner: string): Promise<DrainRecord> {
  const planned = Number((await store.getMeta(ENQUEUED_AT_KEY)) || NaN);
  await store.setMeta('indexedAt', String(Number.isFinite(planned) ? planned : Date.now()));
  await store.setMeta(ENQUEUED_AT_KEY, '');
  const commit = await store.getMeta(ENQUEUED_COMMIT_KEY);
  if (commit !== undefined) await store.setMeta('indexedCommit', commit);
  const { failed } = counts;
  const enqueued = await store.getMeta(ENQUEUED_SCANNER_KEY);
  if (enqueued === undefined) return { failed, secretScanner: 'not-enqueued' };
  if ((await store.getMeta(SECRET_SCANNER_META)) === enqueued) return { failed, secretScanner: 'recorded' };
  if (failed > 0) return { failed, secretScanner: 'failed-jobs' };
  if (scanner !== enqueued) return { failed, secretScanner: 'scanner-differs' };
  await store.setMeta(SECRET_SCANNER_META, enqueued);
  return { failed, secretScanner: 'recorded' };
}
