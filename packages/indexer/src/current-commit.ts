import { existsSync } from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';

/**
 * The commit id of HEAD for a project root that is a git work tree, or null (no `.git`, no commit
 * yet, or git not installed).
 */
export async function currentCommit(root: string): Promise<string | null> {
  if (!existsSync(path.join(root, '.git'))) return null;
  try {
    const out = await simpleGit({ baseDir: root }).revparse(['HEAD']);
    return out.trim() || null;
  } catch {
    // A repository without commits (or without git on PATH) has no commit to record.
    return null;
  }
}
