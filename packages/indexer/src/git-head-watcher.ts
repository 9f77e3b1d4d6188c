import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@monorag/shared';
import { currentCommit } from './current-commit.js';

/** Options of {@link watchGitHead}. */
export interface GitHeadWatcherOptions {
  /** Absolute work tree root. */
  root: string;
  /** Called with the new HEAD commit after it moved (commit, checkout, reset, rebase, merge). */
  onHeadChange: (commit: string | null) => void;
  /** Quiet time after activity in `.git` before HEAD is read, in ms; default 200. */
  debounceMs?: number;
  logger?: Logger;
}

/**
 * Watches the `.git` directory (one watch; the tree watcher ignores `.git`) and reports when HEAD
 * points at another commit, so that a commit that changes no file in the work tree still moves the
 * index's commit. Returns a closer; does nothing outside a work tree whose `.git` is a directory.
 */
export function watchGitHead({ root, onHeadChange, debounceMs = 200, logger }: GitHeadWatcherOptions): () => void {
  const gitDir = path.join(root, '.git');
  if (!existsSync(path.join(gitDir, 'HEAD'))) return () => {};
  let last: Promise<string | null> = currentCommit(root);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(gitDir, () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        const previous = last;
        last = currentCommit(root);
        void Promise.all([previous, last]).then(([before, now]) => {
          if (before !== now) onHeadChange(now);
        });
      }, debounceMs);
    });
  } catch (error) {
    // Out of watches: the freshness check still compares HEAD with the indexed commit on every request.
    logger?.warn({ err: (error as Error).message }, 'cannot watch .git for HEAD changes');
  }
  return () => {
    if (timer) clearTimeout(timer);
    watcher?.close();
  };
}
