import { simpleGit } from 'simple-git';

/**
 * The repo-relative paths that differ between two commits of the repository at `root`
 * (`git diff -z --no-renames --name-only <from> <to>`: both sides of a rename, names as they are).
 * @returns the paths, or undefined when git cannot diff the two (a commit unknown here or collected
 *   since a rewrite, a shallow clone, no git).
 */
export async function changedBetween(root: string, from: string, to: string): Promise<string[] | undefined> {
  let listed: string;
  try {
    listed = await simpleGit({ baseDir: root }).raw(['diff', '-z', '--no-renames', '--name-only', from, to, '--']);
  } catch {
    // Which files differ is unknown: the callers fall back to what covers every file.
    return undefined;
  }
  return listed.split('\0').filter((rel) => rel !== '');
}
