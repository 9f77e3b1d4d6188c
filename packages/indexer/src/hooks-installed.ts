import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gitPath } from './git-path.js';
import { HOOK_MARKER, WORKTREE_HOOKS_DIR } from './hook-scripts.js';

/** Whether the file holds monorag's hook marker (its own hook, or a hook of the user's with monorag's lines). */
function holdsMarker(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').includes(HOOK_MARKER);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}

/**
 * A check, for a reader of one work tree, of whether `monorag hooks install` is in effect there: this work
 * tree's scripts are in place (`<git-path monorag-hooks>/post-commit`) and the hooks directory git uses now
 * runs them (its `post-commit`, or under husky `.husky/post-commit`, holds monorag's marker; a
 * `core.hooksPath` changed since the install, e.g. husky adopted later, runs none). It is keyed on
 * post-commit, the hook that queues commits: an install by an earlier monorag, without the post-applypatch
 * hook (`git am`), still counts, since every commit still reaches the index (running `monorag hooks install`
 * again adds the hook). The two folders are
 * asked of git at most once per `ttlMs` (default 10 s, so that a long-lived server notices a change);
 * each check after that is a stat and a small read. Resolves false outside git, or when git fails.
 */
export function createHooksInstalledCheck(root: string, ttlMs = 10_000): () => Promise<boolean> {
  let cached: { at: number; dirs: Promise<{ scripts: string; hooks: string } | null> } | undefined;
  return async () => {
    if (cached === undefined || Date.now() - cached.at > ttlMs) {
      const dirs = Promise.all([gitPath(root, WORKTREE_HOOKS_DIR), gitPath(root, 'hooks')]).then(
        ([scripts, hooks]) => ({ scripts, hooks }),
        () => null,
      );
      cached = { at: Date.now(), dirs };
    }
    const dirs = await cached.dirs;
    if (dirs === null || !existsSync(path.join(dirs.scripts, 'post-commit'))) return false;
    return holdsMarker(path.join(dirs.hooks, 'post-commit')) || (path.basename(dirs.hooks) === '_' && holdsMarker(path.join(path.dirname(dirs.hooks), 'post-commit')));
  };
}
