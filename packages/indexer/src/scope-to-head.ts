import { changedBetween } from './changed-between.js';
import { runScope } from './path-scope.js';

/**
 * The scope a run (or a plan of queue jobs) limited to `scope` needs so that, once done, the index
 * reflects HEAD `head` and may record it as its commit: `scope` plus every path that differs between
 * `indexed` (the commit the index reflects, `indexedCommit`; in queue mode the one the queued jobs bring
 * it to) and `head` (`git diff -z --no-renames --name-only`). HEAD can move with no hook firing (`git
 * reset --hard`, `git update-ref`, a checkout of a work tree without hooks), or move again between the
 * hook that queued `scope` and the run that reads HEAD: the paths such a move changed are read too, as
 * they are whichever way HEAD got there.
 * - `scope` undefined (a whole-tree run), `head` null (outside git, no commit yet), `indexed` undefined
 *   (no run has recorded a commit: the index is not complete either way) or equal to `head`: `scope` as it is.
 * - `indexed` '' (the index was built outside git, or before the first commit) or a commit git cannot
 *   diff (unknown here, or collected since a rebase): undefined, a whole-tree run, since nothing tells
 *   which files differ.
 * - a changed ignore-rules file among the differences: undefined, as {@link runScope} says.
 * @param scope normalised repo-relative paths (see {@link runScope}), or undefined for the whole tree.
 * @returns the normalised scope to run, or undefined for the whole tree.
 */
export async function scopeToHead(
  root: string,
  scope: readonly string[] | undefined,
  indexed: string | undefined,
  head: string | null,
): Promise<string[] | undefined> {
  if (scope === undefined) return undefined;
  if (head === null || indexed === undefined || indexed === head) return [...scope];
  if (indexed === '') return undefined;
  const listed = await changedBetween(root, indexed, head);
  // `indexed` is no commit of this repository (any more): which files differ is unknown.
  return listed === undefined ? undefined : runScope([...scope, ...listed]);
}
