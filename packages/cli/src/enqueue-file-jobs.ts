import { currentCommit, headDifferences, recordHeadDifferences, runScope, scopeToHead, secretScannerOf } from '@monorag/indexer';
import { planFileJobs, type BullmqIndexQueue } from '@monorag/indexer/queue';
import type { ChunkStore } from '@monorag/store';
import { dataDirIgnorePattern, type ProjectContext } from './project-context.js';
import { ENQUEUED_COMMIT_KEY, recordDrainedQueue, recordEnqueued, requireScanner, scannerWidensPlan } from './queue-freshness.js';

/** What one plan-and-enqueue did: the part of `monorag jobs enqueue`'s report that every enqueue shares. */
export interface FileJobsReport {
  /** The BullMQ queue's name (`monorag-index-<project key>`). */
  queue: string;
  /** Files found by the walk (under the paths, when given). */
  walked: number;
  /** Walked files whose content is unchanged and that need no job. */
  unchanged: number;
  /**
   * Unchanged files enqueued all the same, for the workers to scan for secrets again: the index was
   * written with another secret scanner (`index.redactSecrets` changed, a new scanner, or none recorded).
   */
  rescan: number;
  /** Walked files not in the index that a worker would leave out by their text (generated code, a private key): no job. */
  leftOut: number;
  /** File jobs handed to the queue. */
  enqueued: number;
  /**
   * Set when paths were given but the whole tree was planned: `index.redactSecrets` gives `scanner`,
   * the index stands on `standing` (see `scannerWidensPlan`).
   */
  widened?: { scanner: string; standing: string };
}

/** Options of {@link enqueueFileJobs}. */
export interface EnqueueFileJobsOptions {
  context: ProjectContext;
  /** The configured store, opened with the index identity (the plan diffs against its manifest). */
  store: ChunkStore;
  /** The project's queue (see `openQueue`). */
  queue: BullmqIndexQueue;
  /** Only these repo-relative paths (files or directories); default, or an ignore-rules file among them, the whole tree. */
  paths?: readonly string[];
}

/**
 * Plans and enqueues the file jobs that bring the store up to date with the tree (or with `paths`):
 * one per new, changed or removed file, and per unchanged file when the index was written with another
 * secret scanner (`planFileJobs`). A plan limited to paths also covers what differs between HEAD and
 * the commit the queue's jobs (or the index) were brought to, so that the commit it records is one whose
 * changes are planned (`scopeToHead`); it covers the whole tree instead while
 * `index.redactSecrets` differs from the scanner the index stands on (`widened`); a whole-tree plan
 * first requires its scanner of every worker (`requireScanner`). Then it records what the jobs bring the
 * index to (`recordEnqueued`: HEAD, and a whole-tree plan's scanner) and, when the queue is already
 * drained (no job was needed, or the workers finished them meanwhile), records the index as up to date
 * at that commit (`recordDrainedQueue`): no worker's job would record it otherwise, so a commit that
 * changed nothing the index lacks left the index looking behind HEAD. Does not wait for the workers.
 * @returns the report and the scanner the planned jobs bring the index to.
 * @throws MonoragError QUEUE_UNAVAILABLE (Redis), `INVALID_ARGUMENT` for a path that leaves the root; the store's errors.
 */
export async function enqueueFileJobs({ context, store, queue, paths: given }: EnqueueFileJobsOptions): Promise<{ report: FileJobsReport; scanner: string }> {
  const ignorePattern = dataDirIgnorePattern(context);
  const commit = await currentCommit(context.root);
  // The commit recorded below must be one whose changes the jobs bring: with HEAD moved since the commit
  // the queued jobs bring the index to (or, before any enqueue, the indexed one), the paths that differ
  // between the two are planned too, or the whole tree when git cannot diff them (see scopeToHead).
  const base = (await store.getMeta(ENQUEUED_COMMIT_KEY)) ?? (await store.getMeta('indexedCommit'));
  const toHead = await scopeToHead(context.root, runScope(given), base, commit);
  // A hook's paths after index.redactSecrets changed: the whole tree, as a changed ignore file does.
  const scanner = secretScannerOf(context.config.index.redactSecrets);
  const standing = toHead === undefined ? undefined : await scannerWidensPlan(store, scanner);
  const paths = standing === undefined ? toHead : undefined;
  const scope = runScope(paths);
  const differences = await headDifferences(context.root, scope);
  const plannedAt = Date.now();
  const plan = await planFileJobs({
    root: context.root, store, maxFileBytes: context.config.index.maxFileBytes, extraIgnores: ignorePattern ? [ignorePattern] : [], paths,
    redactSecrets: context.config.index.redactSecrets,
  });
  // A whole-tree plan sets the scanner every worker must use before its jobs exist: a worker with
  // another index.redactSecrets fails them instead of leaving files scanned the old way.
  const wholeTree = scope === undefined;
  if (wholeTree) await requireScanner(store, plan.scanner);
  const report: FileJobsReport = {
    queue: queue.name, walked: plan.walked, unchanged: plan.unchanged, rescan: plan.rescan, leftOut: plan.leftOut, enqueued: await queue.enqueue(plan.paths),
    ...(standing === undefined ? {} : { widened: { scanner, standing } }),
  };
  // What these jobs bring the index to, recorded by whoever finds the queue drained: the commit, and for a
  // whole-tree plan the secret scanner (a plan limited to paths re-scans only the files under them).
  await recordEnqueued(store, { commit, scanner: wholeTree ? plan.scanner : undefined, plannedAt });
  // Which tracked files the jobs bring to a state other than HEAD's (freshness notices them put back).
  await recordHeadDifferences(store, commit, differences, scope);
  await recordDrainedQueue(queue, store, plan.scanner);
  return { report, scanner: plan.scanner };
}
