import { existsSync } from 'node:fs';
import path from 'node:path';
import { setGitExclude } from '@monorag/indexer';
import { checkIndexFileOwner } from './index-owner.js';
import { dataDirIgnorePattern, ensureDataDir, STORE_FILE_NAME, type ProjectContext } from './project-context.js';

/**
 * Readies the data directory for a command that writes the index (`index`, `watch`, `serve`, `jobs
 * enqueue`): refuses another project's index file first ({@link checkIndexFileOwner}), so a refused
 * command writes nothing (a trial: `.git/info/exclude` lost the project's `/.monorag/` line before the
 * refusal); then creates the directory ({@link ensureDataDir}) and points monorag's entry in
 * `.git/info/exclude` at it (`setGitExclude`; a read-only checkout is logged and left as it is).
 * @returns the ignore pattern of the data directory inside the project (for the walk), undefined when it lies outside.
 * @throws MonoragError `INVALID_ARGUMENT` when the index file belongs to another project or the data
 *   directory is refused; the errors of {@link ensureDataDir}.
 */
export async function prepareDataDir(context: ProjectContext): Promise<string | undefined> {
  checkIndexFileOwner(context);
  ensureDataDir(context);
  const ignorePattern = dataDirIgnorePattern(context);
  await setGitExclude(context.root, ignorePattern, {
    // An earlier data directory that still holds an index stays excluded (a trial: `--data-dir` elsewhere dropped it, and the old index showed in `git status`).
    stillHolds: (pattern) => existsSync(path.join(context.root, pattern, STORE_FILE_NAME)),
    // A read-only checkout (the team stack mounts the project read-only): the index is still written, only git's view is unchanged.
    onUnwritable: (file, code) =>
      context.logger.warn({ file, code }, `${file} cannot be written (${code}): monorag's entry for its data directory there stays as it was`),
  });
  return ignorePattern;
}
