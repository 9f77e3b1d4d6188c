import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import type { IgnoreFilter } from './ignore-filter.js';
import { readProjectFile } from './read-project-file.js';

/**
 * Most paths {@link headMoveIndexed} compares; a move across more (a checkout of a distant branch) is
 * taken as not indexed without reading them, since the next run has that much to do anyway.
 */
export const HEAD_MOVE_MAX_PATHS = 1000;

/** Options of {@link headMoveIndexed}. */
export interface HeadMoveOptions {
  /** Absolute real path of the project root, a git work tree. */
  root: string;
  /** The commit the index reflects (`indexedCommit` meta). */
  indexedCommit: string;
  /** HEAD now. */
  headCommit: string;
  /** The project's ignore rules: a path they leave out never matters. */
  filter: IgnoreFilter;
  /** The index's size limit in bytes (`index.maxFileBytes`): a larger file is one no run indexes. */
  maxFileBytes: number;
  /** The content hash the index holds for a repo-relative path (`FileRecord.contentHash`), undefined when it holds none. */
  contentHashOf: (relPath: string) => Promise<string | undefined>;
}

/**
 * Whether HEAD has moved only to content the index already holds: every path that differs between
 * `indexedCommit` and `headCommit` (`git diff --name-only --no-renames`), unless the ignore rules
 * leave it out, holds in the work tree the text the index holds of it (the same content hash), or is
 * absent from both (deleted, a link, binary, over the size limit). So `git commit --amend` of a
 * message, a commit of edits a run has already indexed, or a checkout back and forth, do not make the
 * index stale, while a checkout or pull that brings files the index has not read does. Work-tree changes
 * since the last run are counted apart (`countWorkTreeChanges`).
 * @returns false as well when git cannot compare the commits (one was garbage-collected, git is
 *   missing) or more than {@link HEAD_MOVE_MAX_PATHS} paths differ; reads at most that many files.
 */
export async function headMoveIndexed({ root, indexedCommit, headCommit, filter, maxFileBytes, contentHashOf }: HeadMoveOptions): Promise<boolean> {
  let listed: string;
  try {
    listed = await simpleGit({ baseDir: root }).raw(['diff', '--name-only', '--no-renames', '-z', indexedCommit, headCommit, '--']);
  } catch {
    // An unknown commit (rewritten history, a shallow clone) or no git: the move cannot be shown harmless.
    return false;
  }
  const paths = listed.split('\0').filter((rel) => rel !== '' && !filter.isPathIgnored(rel, false));
  if (paths.length > HEAD_MOVE_MAX_PATHS) return false;
  for (const rel of paths) {
    const held = await contentHashOf(rel);
    const abs = path.join(root, rel);
    const info = await lstat(abs).catch(() => undefined);
    if (info === undefined || !info.isFile() || info.size > maxFileBytes) {
      if (held !== undefined) return false;
      continue;
    }
    const read = await readProjectFile(abs);
    const onDisk = read.kind === 'text' ? read.contentHash : undefined;
    if (onDisk !== held) return false;
  }
  return true;
}
