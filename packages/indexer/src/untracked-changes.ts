import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import type { IgnoreFilter } from './ignore-filter.js';

/** Options of {@link countUntrackedChanges}. */
export interface UntrackedChangesOptions {
  /** Absolute real path of the project root (a git work tree; otherwise nothing is counted). */
  root: string;
  /** When the index was last updated, in ms since the Unix epoch; null when it never was (every file counts). */
  sinceMs: number | null;
  /** The project's ignore rules: files the index leaves out never count. */
  filter: IgnoreFilter;
}

/**
 * Untracked files the index has not seen yet: files git lists as untracked and not ignored
 * (`git ls-files --others --exclude-standard`), admitted by the project's own ignore rules, and
 * modified after `sinceMs` (new since the last index run, or edited since). HEAD only moves with
 * commits, so without this a new file would leave the index looking fresh.
 * @returns the number of such files; 0 outside a git work tree or when git cannot run.
 */
export async function countUntrackedChanges({ root, sinceMs, filter }: UntrackedChangesOptions): Promise<number> {
  if (!existsSync(path.join(root, '.git'))) return 0;
  let listed: string;
  try {
    listed = await simpleGit({ baseDir: root }).raw(['ls-files', '--others', '--exclude-standard', '-z']);
  } catch {
    // git missing or the repository unreadable: nothing is known about untracked files, as outside git.
    return 0;
  }
  let count = 0;
  for (const rel of listed.split('\0')) {
    if (rel === '' || filter.isPathIgnored(rel, false)) continue;
    if (sinceMs === null) {
      count++;
      continue;
    }
    try {
      if ((await stat(path.join(root, rel))).mtimeMs > sinceMs) count++;
    } catch (error) {
      // Removed since git listed it: nothing to index.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return count;
}
