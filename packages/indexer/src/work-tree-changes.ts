import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { changedAt } from './changed-at.js';
import { isNotebookPath } from '@monorag/chunker';
import { binaryByName } from './default-ignores.js';
import { createDirectoryTimes } from './directory-times.js';
import { headDifferences, type HeadDifferencesRecord } from './head-differences.js';
import type { IgnoreFilter } from './ignore-filter.js';
import { belowUnreadableDir, walkProject } from './walk-project.js';

/** Options of {@link countWorkTreeChanges}. */
export interface WorkTreeChangesOptions {
  /** Absolute real path of the project root: a git work tree, or, with {@link maxFileBytes}, any directory. */
  root: string;
  /**
   * The index's size limit in bytes (`index.maxFileBytes`). Given, a project that is not a git work tree
   * (no `.git` at its root) is walked as an index run walks it (`walkProject`: the ignore rules, file
   * stats only, no content read) instead of asking git; without it, nothing is counted there.
   */
  maxFileBytes?: number;
  /**
   * The index's `indexedAt` meta, in ms since the Unix epoch: when the last completed index run started
   * (in queue mode, when the queue last drained); null when none completed (every file counts).
   */
  sinceMs: number | null;
  /** The project's ignore rules: files the index leaves out never count. */
  filter: IgnoreFilter;
  /**
   * Whether the index holds a file (repo-relative path): a tracked file deleted from the work tree
   * counts while the index still holds it. Without it, deletions are not counted.
   */
  isIndexed?: (relPath: string) => Promise<boolean>;
  /**
   * When the index read the text it holds of a file (`FileRecord.indexedAt`, ms since the Unix epoch),
   * undefined for a file it does not hold. Given, a file the index holds counts only when modified
   * after that read, not after `sinceMs`: a long or interrupted run has already indexed the files saved
   * before it read them, and they are not pending; one saved after its read (while its batch was
   * embedded) is, though the run wrote it.
   */
  indexedAtOf?: (relPath: string) => Promise<number | undefined>;
  /**
   * When an index run last looked at a file and left it out on purpose (binary, too large, generated,
   * minified, a secret) or could not read it (`readSkippedFiles`), ms since the Unix epoch; undefined
   * for a file no run has recorded so. Given, such a file counts only when modified after that look (and
   * after `sinceMs`): a run limited to paths (a watcher's, a git hook's) has handled it, though it did
   * not move `sinceMs`. A file the index holds and a run could not read since counts only when changed
   * after that run (the index keeps its older text, as for a directory it cannot list).
   */
  skippedAtOf?: (relPath: string) => Promise<number | undefined>;
  /**
   * Every repo-relative path the index holds. Given, an indexed file git does not track that is gone
   * from the work tree (or became a link) counts too: git lists no deleted untracked file, so only the
   * index knows it was there. Costs one more `git ls-files` and one lstat per untracked indexed file.
   */
  indexedPaths?: () => Promise<readonly string[]>;
  /**
   * The commit the index reflects (`indexedCommit`), HEAD now (`headCommit`, as `currentCommit` reads it;
   * the caller has it for the freshness it reports) and the record of tracked paths that differed from
   * HEAD when the index read them (`readHeadDifferences`). Given, and HEAD still the commit of both, such
   * a path that matches HEAD again counts: put back by `git checkout -- <file>`, `git stash` or `git reset
   * --hard`, it is listed by git nowhere, while the index holds the edited text (or lacks the file).
   * Costs one `git diff HEAD` when any path is recorded.
   */
  headDifferences?: { indexedCommit: string | null; headCommit: string | null; record: () => Promise<HeadDifferencesRecord | null> };
  /** Repo-relative paths already queued for indexing (the file jobs of the team stack's queue): never counted. */
  exclude?: ReadonlySet<string>;
}

/**
 * Work-tree changes the index has not seen yet: files git lists as untracked and not ignored, or as
 * tracked and modified in the work tree (`git ls-files --others --modified --exclude-standard`),
 * admitted by the project's own ignore rules, and modified after `sinceMs` (new or edited since the
 * last index run started), or, for a file the index holds and `indexedAtOf` is given, after the index
 * read the text it holds, or, for a file a run left out on purpose and `skippedAtOf` is given, after that
 * run looked at it; and tracked files deleted from the work tree that the index still holds
 * (`isIndexed`; a deletion has no time, so the index's own contents decide), with `indexedPaths`
 * untracked files the index holds that are gone from the work tree, and with `headDifferences` tracked
 * files put back to HEAD's version since the index read them. A symbolic link (to a
 * file inside the project, outside it, a missing target or a loop) and a path that cannot be examined
 * are no file the indexer reads (the walk skips them), so they count as a deletion does: only while the
 * index holds that path. Links are never followed, so a looping link never fails a status or a search.
 * HEAD only moves with commits, so without this a new file, an uncommitted edit or deletion would
 * leave the index looking fresh.
 * Outside a git work tree, with `maxFileBytes`, the same files are found by walking the tree
 * ({@link countWalkedChanges}).
 * @returns the number of such files; 0 when git cannot run, and outside a git work tree without `maxFileBytes`.
 */
export async function countWorkTreeChanges(options: WorkTreeChangesOptions): Promise<number> {
  const { root, sinceMs, filter, isIndexed, indexedPaths, exclude } = options;
  if (!existsSync(path.join(root, '.git'))) return options.maxFileBytes === undefined ? 0 : countWalkedChanges(options, options.maxFileBytes);
  const git = simpleGit({ baseDir: root });
  let listed: string;
  let tracked: string | undefined;
  try {
    listed = await git.raw(['ls-files', '--others', '--modified', '--exclude-standard', '-z']);
    if (indexedPaths) tracked = await git.raw(['ls-files', '-z']);
  } catch {
    // git missing or the repository unreadable: nothing is known about untracked files, as outside git.
    return 0;
  }
  let count = 0;
  const directoryTimes = createDirectoryTimes(root);
  // A path can be listed twice (modified and unmerged); each counts once.
  const changed = new Set(listed.split('\0'));
  for (const rel of changed) {
    if (rel === '' || exclude?.has(rel) || filter.isPathIgnored(rel, false)) continue;
    // lstat, not stat: a link is judged as the walk judges it, never followed (a loop would throw ELOOP).
    const info = await lstat(path.join(root, rel)).catch(() => undefined);
    if (info === undefined || info.isSymbolicLink()) {
      // A deleted tracked file (git lists it as modified), one removed since git listed it, one that
      // cannot be examined, or a link: the next run indexes nothing there, and removes what the index
      // still holds at that path.
      if (isIndexed && (await isIndexed(rel))) count++;
      continue;
    }
    // A file no run would read (binary by extension, over the size limit) that the index does not hold:
    // the next run changes nothing for it, as the walk outside git never lists it.
    if (leftOutUnread(rel, info.size, options.maxFileBytes) && !(isIndexed && (await isIndexed(rel)))) continue;
    if (await changedSinceRead(options, rel, changedAt(info), directoryTimes)) count++;
  }
  // Rules in .git/info/exclude changed since the run: files may have joined or left the index.
  const excludeFile = await lstat(path.join(root, '.git', 'info', 'exclude')).catch(() => undefined);
  if (sinceMs !== null && excludeFile !== undefined && changedAt(excludeFile) > sinceMs) count++;
  const gone = indexedPaths && tracked !== undefined ? await deletedUntracked(root, await indexedPaths(), new Set(tracked.split('\0')), changed, exclude) : [];
  const reverted = options.headDifferences ? await revertedToHead(root, options.headDifferences, changed, filter, exclude) : [];
  return count + new Set([...gone, ...reverted]).size;
}

/**
 * Whether an index run leaves a file out by its name and size alone, never reading it: binary by
 * extension, or over `maxFileBytes` bytes (when given) unless it is a notebook, whose cell sources are
 * measured instead (`tooLargeDetail`).
 */
function leftOutUnread(rel: string, size: number, maxFileBytes: number | undefined): boolean {
  return binaryByName(rel) || (maxFileBytes !== undefined && size > maxFileBytes && !isNotebookPath(rel));
}

/**
 * Work-tree changes of a project outside git, found by walking it as an index run does: files the
 * walk selects that are new or modified since the index read them (or since `sinceMs`, or since a run
 * left them out on purpose, as in {@link countWorkTreeChanges}), and paths the index holds
 * (`indexedPaths`) that the walk no longer selects (deleted, now ignored, too large or a link: the next
 * run removes them) unless they lie below a directory the walk could not list. Costs one stat per file
 * of the tree; no file is read. 0 when the root cannot be listed.
 */
async function countWalkedChanges(options: WorkTreeChangesOptions, maxFileBytes: number): Promise<number> {
  const { root, filter, indexedPaths, exclude } = options;
  let walk;
  try {
    walk = await walkProject({ root, maxFileBytes, filter });
  } catch (error) {
    // The root cannot be listed: nothing is known about the tree, as when git cannot run.
    if ((error as NodeJS.ErrnoException).code !== undefined) return 0;
    throw error;
  }
  const selected = new Set<string>();
  const directoryTimes = createDirectoryTimes(root);
  let count = 0;
  for (const file of walk.files) {
    selected.add(file.path);
    if (exclude?.has(file.path)) continue;
    if (await changedSinceRead(options, file.path, file.changedMs, directoryTimes)) count++;
  }
  if (indexedPaths) {
    for (const rel of await indexedPaths()) {
      if (!selected.has(rel) && !exclude?.has(rel) && !belowUnreadableDir(walk, rel)) count++;
    }
  }
  return count;
}

/**
 * Whether a file that exists (`changedMs`: its {@link changedAt}) changed since the index read it
 * (`indexedAtOf`, or since a later run could not read it), or, for a file the index does not hold, since
 * the last run (`sinceMs`) or the run that left it out (`skippedAtOf`), counting a change of a directory
 * above it (moved in, renamed) when the caller says which files the index holds.
 */
async function changedSinceRead(
  { sinceMs, indexedAtOf, skippedAtOf }: WorkTreeChangesOptions,
  rel: string,
  changedMs: number,
  directoryTimes: (relPath: string) => Promise<number>,
): Promise<boolean> {
  const heldAt = indexedAtOf && (await indexedAtOf(rel));
  const skippedAt = skippedAtOf && (await skippedAtOf(rel));
  const since = heldAt !== undefined ? Math.max(heldAt, skippedAt ?? heldAt) : skippedSince(sinceMs, skippedAt);
  const at = indexedAtOf && heldAt === undefined ? Math.max(changedMs, await directoryTimes(rel)) : changedMs;
  return since === null || at > since;
}

/** The time a file the index does not hold counts from: the later of `sinceMs` and when a run left it out (`skippedAt`). */
function skippedSince(sinceMs: number | null, skippedAt: number | undefined): number | null {
  if (skippedAt === undefined) return sinceMs;
  return sinceMs === null ? skippedAt : Math.max(sinceMs, skippedAt);
}

/**
 * Recorded paths (see `WorkTreeChangesOptions.headDifferences`) that no longer differ from HEAD and that
 * git lists as neither modified nor untracked, while HEAD is still the commit the index reflects.
 */
async function revertedToHead(
  root: string,
  recorded: NonNullable<WorkTreeChangesOptions['headDifferences']>,
  changed: ReadonlySet<string>,
  filter: IgnoreFilter,
  exclude: ReadonlySet<string> | undefined,
): Promise<string[]> {
  const record = await recorded.record();
  if (record === null || record.paths.length === 0 || record.commit !== recorded.indexedCommit || recorded.headCommit !== record.commit) return [];
  const now = await headDifferences(root);
  if (now === null) return [];
  return record.paths.filter((rel) => !now.has(rel) && !changed.has(rel) && !exclude?.has(rel) && !filter.isPathIgnored(rel, false));
}

/**
 * Indexed paths git neither tracks nor lists as untracked (`changed` holds what `--others` listed)
 * that are missing from the work tree or are links now: untracked files deleted since they were indexed.
 */
async function deletedUntracked(
  root: string,
  indexed: readonly string[],
  tracked: ReadonlySet<string>,
  changed: ReadonlySet<string>,
  exclude: ReadonlySet<string> | undefined,
): Promise<string[]> {
  const gone: string[] = [];
  for (const rel of indexed) {
    if (tracked.has(rel) || changed.has(rel) || exclude?.has(rel)) continue;
    const info = await lstat(path.join(root, rel)).catch(() => undefined);
    if (info === undefined || info.isSymbolicLink()) gone.push(rel);
  }
  return gone;
}
