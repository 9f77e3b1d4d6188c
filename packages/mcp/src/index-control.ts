import type { IndexFreshness } from '@monorag/retriever';

/** The outcome of one index run, as the MCP tools report it. */
/** Most skipped files a {@link IndexRunSummary} lists. */
export const SKIPPED_LISTED = 20;

export interface IndexRunSummary {
  mode: 'full' | 'paths';
  files: number;
  added: number;
  changed: number;
  deleted: number;
  unchanged: number;
  chunksEmbedded: number;
  /** Added files that were moves and kept their vectors (no model call). */
  moved: number;
  /** Embedding-cache entries pruned after the run. */
  cachePruned: number;
  durationMs: number;
  /**
   * Set when the run indexed nothing itself but put file jobs on the team stack's queue for `monorag
   * worker`s (`queue.kind` bullmq): the counts above other than `files` and `unchanged` are then 0.
   */
  /**
   * Files the run left out and why (`too-large`, `binary`, `symlink-outside`, `secret`, ... with the
   * detail, e.g. `1350025 bytes > 1048576`): at most {@link SKIPPED_LISTED} in `files`, all counted in
   * `total`. Absent when the run skipped nothing.
   */
  skipped?: { total: number; files: { path: string; reason: string; detail?: string; removed?: boolean }[] };
  enqueued?: {
    /** The BullMQ queue's name. */
    queue: string;
    /** File jobs the run added. */
    jobs: number;
    /** Workers connected to the queue after the jobs were added (0 when no job was added). */
    workers: number;
  };
}

/** The state of a project's index and its updater. */
export interface IndexStatus {
  index: IndexFreshness;
  /** `native` or `polling` while a file watcher runs, `off` otherwise. */
  watching: 'native' | 'polling' | 'off';
  /** Directories watched (0 when not watching). */
  watchedDirectories: number;
  lastRun: IndexRunSummary | null;
  /** Message of the last failed run, or null. */
  lastError: string | null;
}

/** Lets MCP tools read the index state and start updates; the CLI implements it over the indexer. */
export interface IndexControl {
  status(): Promise<IndexStatus>;
  /**
   * Starts an update of `paths` (repo-relative), or of the whole tree when omitted. With `wait`, resolves
   * after the run that covers the request; without, as soon as it is scheduled.
   * @throws MonoragError from the run when waiting.
   */
  sync(request: { paths?: string[]; wait: boolean }): Promise<IndexRunSummary | null>;
  /**
   * The entries of `paths` (repo-relative) that name nothing: no file or directory in the tree and no
   * indexed file at or below them; returned as given, for `sync_index`'s warnings.
   */
  unknownPaths(paths: readonly string[]): Promise<string[]>;
}
