import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The comment line monorag writes above the data directory's entry in `.git/info/exclude`, by which it finds the entry again. */
export const GIT_EXCLUDE_MARKER = '# monorag data directory (monorag rewrites the next line when the data directory moves)';

/**
 * Keeps the data directory out of `git status`: makes `pattern` (e.g. `/.monorag/`; undefined for a data
 * directory outside the project) the one entry of `<root>/.git/info/exclude` that monorag wrote, under
 * {@link GIT_EXCLUDE_MARKER}. An entry monorag wrote for another data directory (a `--data-dir` used
 * once) is removed, so files later put in that folder are seen by git and indexed again. Lines monorag
 * did not mark (the user's, or an older monorag's) are kept; a pattern equal to one of them is not added
 * twice. Does nothing outside a git work tree (where `.git` is not a directory, e.g. a worktree's `.git` file).
 * A checkout that cannot be written (a read-only mount, as the team stack mounts the project into its
 * containers; another user's files) keeps its file as it is: `onUnwritable` is told, nothing is thrown.
 * @param onUnwritable called with the file and the error code (`EROFS`, `EACCES`, `EPERM`) when it cannot be written.
 * @param stillHolds whether the folder of an earlier entry (its pattern, e.g. `/.monorag/`) still holds
 *   monorag's data: such an entry is kept beside the new one, so an index left behind when the data
 *   directory moves (`--data-dir` elsewhere, a run that then fails) stays out of `git add -A`.
 * @returns true when the file was changed.
 * @throws the file system's other errors (a full disk, ...).
 */
export async function setGitExclude(
  root: string,
  pattern: string | undefined,
  { onUnwritable, stillHolds }: { onUnwritable?: (file: string, code: string) => void; stillHolds?: (pattern: string) => boolean } = {},
): Promise<boolean> {
  const gitDir = path.join(root, '.git');
  if (!existsSync(path.join(gitDir, 'HEAD'))) return false;
  const file = path.join(gitDir, 'info', 'exclude');
  const text = await readFile(file, 'utf8').catch(() => '');
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const kept: string[] = [];
  let present = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === GIT_EXCLUDE_MARKER && i + 1 < lines.length) {
      const entry = lines[i + 1]!;
      i++;
      if (entry.trim() === pattern && !present) {
        present = true;
        kept.push(GIT_EXCLUDE_MARKER, entry);
      } else if (entry.trim() !== pattern && stillHolds?.(entry.trim())) {
        kept.push(GIT_EXCLUDE_MARKER, entry);
      }
      continue;
    }
    if (pattern !== undefined && lines[i]!.trim() === pattern) present = true;
    kept.push(lines[i]!);
  }
  if (!present && pattern !== undefined) kept.push(GIT_EXCLUDE_MARKER, pattern);
  const next = kept.length === 0 ? '' : `${kept.join('\n')}\n`;
  if (next === text || (text !== '' && next === `${text}\n`)) return false;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, next);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EROFS' && code !== 'EACCES' && code !== 'EPERM') throw error;
    onUnwritable?.(file, code);
    return false;
  }
  return true;
}
