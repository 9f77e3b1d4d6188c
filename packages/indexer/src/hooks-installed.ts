import { existsSync } from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { WORKTREE_HOOKS_DIR } from './hook-scripts.js';

/**
 * A check, for a long-lived reader of one work tree, of whether `monorag hooks install` has put this work
 * tree's hook scripts in place (`<git-path monorag-hooks>/post-commit`). The folder is asked of git once
 * (one process); each check after that is one stat. Resolves false outside git, or when git fails.
 */
export function createHooksInstalledCheck(root: string): () => Promise<boolean> {
  let dir: Promise<string | null> | undefined;
  return async () => {
    dir ??= simpleGit({ baseDir: root })
      .raw(['rev-parse', '--git-path', WORKTREE_HOOKS_DIR])
      .then((out) => path.resolve(root, out.trim()))
      .catch(() => null);
    const resolved = await dir;
    return resolved !== null && existsSync(path.join(resolved, 'post-commit'));
  };
}
