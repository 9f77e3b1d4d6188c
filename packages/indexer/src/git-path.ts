import path from 'node:path';
import { simpleGit } from 'simple-git';

/**
 * `git rev-parse --git-path <name>` of the work tree at `root`, absolute: where git keeps `name` for that
 * work tree (`hooks` honours `core.hooksPath`; a name git does not share, such as `monorag-hooks`, is the
 * linked work tree's own under `.git/worktrees/<id>/`).
 * @throws the git error outside a git work tree.
 */
export async function gitPath(root: string, name: string): Promise<string> {
  return path.resolve(root, (await simpleGit({ baseDir: root }).raw(['rev-parse', '--git-path', name])).trim());
}
