import type { ChunkStore } from '@monorag/store';

/** How fresh the index is; part of every search response and every MCP tool result. */
export interface IndexFreshness {
  /** ISO 8601 time the last completed index run started (in queue mode, when the queue last drained), or null. */
  indexedAt: string | null;
  /** Git commit the index reflects (HEAD when the last run started), or null outside git. */
  indexedCommit: string | null;
  /** Files in the index. */
  files: number;
  /** Chunks in the index. */
  chunks: number;
  /** HEAD of the work tree now, when the caller checked it; null when unknown or outside git. */
  headCommit: string | null;
  /**
   * Changes waiting to be indexed, as far as this process knows: changed paths queued (by a file watcher,
   * a git hook), plus {@link unqueuedChanges}, plus the file jobs of {@link queue}.
   */
  pendingChanges: number;
  /**
   * Of {@link pendingChanges}, files changed in the work tree (new, edited, deleted since the index saw
   * them; a file a run left out on purpose, as binary or too large, only when changed after that run)
   * that nothing has queued for indexing: counted when this process runs no file watcher. A watcher of
   * another process (`watch`, `serve`, `gateway`) picks them up as it sees them; without one, a git hook
   * queues them once committed, `monorag index` at once (the warning says which).
   */
  unqueuedChanges: number;
  /** The team stack's file-job queue (`queue.kind` bullmq): its backlog and workers; null with the in-process queue. */
  queue: QueueBacklog | null;
  /**
   * An index run is in progress (in this or another process), or a watching server's full run asked for
   * without a changed path (its start-up catch-up, a whole-tree `sync_index`) is about to start.
   */
  indexing: boolean;
  /** True when the tree has moved on from the index: pending changes, a run in progress, or HEAD != indexedCommit. */
  stale: boolean;
  /** Why the index may be stale, for people and models; null when it is not. */
  warning: string | null;
}

/** The file-job queue of the team stack, as freshness reports it. */
export interface QueueBacklog {
  /** The BullMQ queue's name (`monorag-index-<project key>`). */
  name: string;
  /** File jobs not done yet: waiting, delayed for a retry, or being indexed. */
  jobs: number;
  /** Of {@link jobs}, those a worker is indexing now. */
  active: number;
  /** Jobs that failed every attempt (`monorag jobs` lists them, `monorag jobs --retry` runs them again). */
  failed: number;
  /** Workers connected to the queue. */
  workers: number;
  /** Why the queue could not be read (Redis did not answer in time, no Redis URL), else null; the counts are 0 then. */
  error: string | null;
}

/** What the caller knows beyond the store: the work tree's HEAD and work waiting to be indexed. */
export interface FreshnessProbe {
  headCommit?: string | null;
  /**
   * HEAD differs from the indexed commit only by content the index already holds (`headMoveIndexed`:
   * an amended message, a commit of edits a run has indexed); default false. True, the move is no reason to call the index stale.
   */
  headMoveIndexed?: boolean;
  /** Changed paths queued for indexing (a watcher's pending paths, the git hooks' queue files); default 0. */
  pendingChanges?: number;
  /** Work-tree changes nothing has queued (see {@link IndexFreshness.unqueuedChanges}); default 0. */
  unqueuedChanges?: number;
  /**
   * Whether this work tree has monorag's git hooks (`monorag hooks install`), which queue committed changes;
   * undefined (default) when not known. The warning about unqueued changes then says which is the case.
   */
  hooksInstalled?: boolean;
  /** The pid of another process whose file watcher picks up those changes (`liveWatcher`), or null (default) when none watches. */
  watcherPid?: number | null;
  /** A run in progress in this or another process (a worker indexing a job counts through `queue.active`). */
  indexing?: boolean;
  /** The file-job queue, in queue mode. */
  queue?: QueueBacklog | null;
  /**
   * The project folder is gone (moved away or deleted under a serving process): the results come from the
   * index as it was, and nothing is indexed until the folder is back. Default false.
   */
  projectGone?: boolean;
  /**
   * What the warning names as the way to index changes at once; default `` `monorag index` `` (a person at a
   * shell). A server whose clients have the MCP tool says `` the `sync_index` tool or `monorag index` ``.
   */
  indexAdvice?: string;
}

/**
 * Reads the freshness metadata the indexer writes after each run, and judges staleness from `probe`
 * (without a probe nothing is known about the tree, and the index is not called stale). The warning
 * names each reason once; an index never built gives that reason alone (plus the queue's and a run in
 * progress). Changes are told apart by where they stand: queued paths are `waiting to be indexed`,
 * unqueued work-tree changes are `not queued for indexing` (`not indexed yet` when another process's
 * watcher picks them up), and in queue mode the file jobs are counted
 * with what runs them (`N file job(s) queued; no worker is connected to Q: ...` when no worker is).
 */
export async function readIndexFreshness(store: ChunkStore, probe: FreshnessProbe = {}): Promise<IndexFreshness> {
  const [at, commit, stats] = await Promise.all([store.getMeta('indexedAt'), store.getMeta('indexedCommit'), store.stats()]);
  const ms = at ? Number(at) : NaN;
  const indexedAt = Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  const indexedCommit = commit ? commit : null;
  const headCommit = probe.headCommit ?? null;
  const queuedPaths = probe.pendingChanges ?? 0;
  const unqueuedChanges = probe.unqueuedChanges ?? 0;
  const queue = probe.queue ?? null;
  const pendingChanges = queuedPaths + unqueuedChanges + (queue?.jobs ?? 0);
  const indexing = (probe.indexing ?? false) || (queue?.active ?? 0) > 0;
  const advice = probe.indexAdvice ?? '`monorag index`';
  const reasons: string[] = [];
  if (probe.projectGone) reasons.push('the project folder is gone (moved or deleted): these results come from the index as it was, and nothing is indexed until the folder is back');
  // An index never built is behind on everything: HEAD and changed paths would only restate that.
  if (indexedAt === null) {
    // Files without a completed run: the first run was stopped (or is still going) part way through.
    reasons.push(
      stats.files === 0
        ? 'the index has not been built yet'
        : `the first index run has not completed: ${stats.files} file(s) are indexed so far and the rest are not (${advice} completes it, re-using what is there)`,
    );
  }
  else {
    // HEAD moved to content the index has not read, with no run queued for it: an operation that fires no hook.
    const headMoved = headCommit !== null && headCommit !== indexedCommit && probe.headMoveIndexed !== true;
    if (headMoved) {
      reasons.push(`HEAD is ${headCommit.slice(0, 12)} but the index reflects ${indexedCommit ? indexedCommit.slice(0, 12) : 'no commit'}`);
    }
    if (queuedPaths > 0) reasons.push(`${queuedPaths} changed path(s) are waiting to be indexed`);
    if (unqueuedChanges > 0) {
      const watcher = probe.watcherPid ?? null;
      reasons.push(
        watcher !== null
          ? `${unqueuedChanges} changed file(s) in the work tree are not indexed yet (the file watcher of process ${watcher} picks them up as it sees them)`
          : headCommit === null
            ? `${unqueuedChanges} changed file(s) in the work tree are not indexed yet (${advice} indexes them)`
            : `${unqueuedChanges} changed file(s) in the work tree are not queued for indexing (${hookAdvice(probe.hooksInstalled, advice, headMoved && queuedPaths === 0 && (queue?.jobs ?? 0) === 0 && !indexing)})`,
      );
    }
  }
  // The queue's reasons also while the index was never built: they say who will build it.
  if (queue) reasons.push(...queueReasons(queue));
  if (probe.indexing) reasons.push('an index update is in progress');
  const stale = reasons.length > 0;
  return {
    indexedAt, indexedCommit, files: stats.files, chunks: stats.chunks, headCommit, pendingChanges, unqueuedChanges, queue, indexing, stale,
    warning: stale ? `Results may be out of date: ${reasons.join('; ')}.` : null,
  };
}

/**
 * How unqueued changes of a git work tree get indexed, by whether monorag's git hooks are installed (undefined: not
 * known). `movedWithoutHook`: HEAD moved with no hook's run queued although the hooks are installed (`git reset`, `git stash`, `git am --abort`):
 * there may be nothing to commit, so the hooks will not queue the changes and only a run will (a trial was told to commit).
 */
function hookAdvice(hooksInstalled: boolean | undefined, advice: string, movedWithoutHook: boolean): string {
  if (hooksInstalled === true && movedWithoutHook) return `HEAD moved by a git operation that fires no hook, such as reset or am --abort: ${advice} indexes them`;
  if (hooksInstalled === true) return `the git hooks queue them once committed, ${advice} at once`;
  if (hooksInstalled === false) return `${advice} indexes them now; \`monorag hooks install\` has git hooks queue them on every commit`;
  return `a git hook queues them once committed, ${advice} at once`;
}

/** What the file-job queue adds to the warning: its backlog and who runs it, failed jobs, or that it could not be read. */
function queueReasons({ name, jobs, active, failed, workers, error }: QueueBacklog): string[] {
  if (error !== null) return [`the file-job queue ${name} could not be read (${error}), so queued jobs are not counted`];
  const reasons: string[] = [];
  if (jobs > 0) {
    reasons.push(
      workers === 0
        ? `${jobs} file job(s) queued; no worker is connected to ${name}: start one with \`monorag worker\``
        : `${jobs} file job(s) queued for ${workers} worker(s) on ${name}${active > 0 ? ` (${active} being indexed)` : ''}`,
    );
  }
  if (failed > 0) reasons.push(`${failed} file job(s) failed on ${name}: \`monorag jobs\` lists them, \`monorag jobs --retry\` runs them again`);
  return reasons;
}
