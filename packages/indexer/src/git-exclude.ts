import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Adds `pattern` (e.g. `/.monorag/`) to `<root>/.git/info/exclude` unless a line equal to it is already
 * there, so the data directory never shows up in `git status`. Does nothing outside a git work tree
 * (where `.git` is not a directory, e.g. a worktree's `.git` file).
 * @returns true when a line was added.
 */
export async function addGitExclude(root: string, pattern: string): Promise<boolean> {
  const gitDir = path.join(root, '.git');
  if (!existsSync(path.join(gitDir, 'HEAD'))) return false;
  const file = path.join(gitDir, 'info', 'exclude');
  const text = await readFile(file, 'utf8').catch(() => '');
  if (text.split('\n').some((line) => line.trim() === pattern)) return false;
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${text && !text.endsWith('\n') ? '\n' : ''}${pattern}\n`);
  return true;
}
