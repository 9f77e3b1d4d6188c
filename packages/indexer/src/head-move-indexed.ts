import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { changedBetween } from './changed-between.js';
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
 * Whether HEAD has moved only to content the index already holds (see {@link HeadMoveCheck}), checked
 * once with nothing remembered. A long-lived reader uses {@link createHeadMoveCheck} instead.
 */
export function headMoveIndexed(options: HeadMoveOptions): Promise<boolean> {
  return createHeadMoveCheck()(options);
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
export type HeadMoveCheck = (options: HeadMoveOptions) => Promise<boolean>;

/**
 * Time in milliseconds a file must have been left alone before a check remembers its hash: file times
 * are coarse (a kernel tick), so an edit just after a read could keep the times the read saw. The same
 * caution as git's "racily clean" index entries.
 */
export const HEAD_MOVE_SETTLED_MS = 1000;

/** A regular file's identity for the remembered hash: inode, size in bytes, mtime and ctime in ms. */
function statSignature(info: Stats): string {
  return `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

/**
 * A {@link HeadMoveCheck} for a long-lived reader (a server reading freshness before each search, while
 * HEAD differs from the indexed commit until the next run). It remembers the `git diff` of the last
 * (indexed commit, HEAD) pair, which two commits fix for good, and the content hash of each differing
 * file by its stat signature (inode, size, mtime, ctime), so a repeated check costs one lstat per path
 * and no git process or file read; a file changed since is read again, as is one changed within
 * `settledMs` (default {@link HEAD_MOVE_SETTLED_MS}) of its read. A failed `git diff` is not remembered.
 */
export function createHeadMoveCheck({ settledMs = HEAD_MOVE_SETTLED_MS }: { settledMs?: number } = {}): HeadMoveCheck {
  let diff: { key: string; paths: string[] } | undefined;
  let hashes = new Map<string, { signature: string; hash: string | undefined }>();
  const listDiff = async (root: string, indexedCommit: string, headCommit: string): Promise<string[] | undefined> => {
    const key = `${root}\0${indexedCommit}\0${headCommit}`;
    if (diff?.key === key) return diff.paths;
    const listed = await changedBetween(root, indexedCommit, headCommit);
    // An unknown commit (rewritten history, a shallow clone) or no git: the move cannot be shown harmless.
    if (listed === undefined) return undefined;
    diff = { key, paths: listed };
    hashes = new Map();
    return diff.paths;
  };
  return async ({ root, indexedCommit, headCommit, filter, maxFileBytes, contentHashOf }) => {
    const listed = await listDiff(root, indexedCommit, headCommit);
    if (listed === undefined) return false;
    const paths = listed.filter((rel) => !filter.isPathIgnored(rel, false));
    if (paths.length > HEAD_MOVE_MAX_PATHS) return false;
    for (const rel of paths) {
      const held = await contentHashOf(rel);
      const abs = path.join(root, rel);
      const info = await lstat(abs).catch(() => undefined);
      if (info === undefined || !info.isFile() || info.size > maxFileBytes) {
        if (held !== undefined) return false;
        continue;
      }
      const signature = statSignature(info);
      const remembered = hashes.get(rel);
      let onDisk: string | undefined;
      if (remembered?.signature === signature) {
        onDisk = remembered.hash;
      } else {
        const readAt = Date.now();
        const read = await readProjectFile(abs);
        onDisk = read.kind === 'text' ? read.contentHash : undefined;
        if (readAt - Math.max(info.mtimeMs, info.ctimeMs) >= settledMs) hashes.set(rel, { signature, hash: onDisk });
        else hashes.delete(rel);
      }
      if (onDisk !== held) return false;
    }
    return true;
  };
}
