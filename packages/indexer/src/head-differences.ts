import { existsSync } from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import type { ChunkStore } from '@monorag/store';
import { inScope } from './path-scope.js';

/**
 * Meta key of the tracked paths whose work-tree state differed from HEAD when the index last looked at
 * them (edited, staged or deleted: `git diff --name-only HEAD`), with that HEAD: JSON
 * `{"commit": "<id>", "paths": ["<repo-relative path>", ...]}`, paths sorted. Freshness reads it to notice
 * such a file put back to HEAD's version (`git checkout -- f`, `git stash`, `git reset --hard`), which git
 * then lists nowhere while the index holds the other text.
 */
export const HEAD_DIFFERENCES_META = 'headDifferences';

/** Most paths {@link HEAD_DIFFERENCES_META} holds; a tree differing from HEAD in more records none (and reverts there go unnoticed). */
export const MAX_HEAD_DIFFERENCES = 5000;

/** What {@link HEAD_DIFFERENCES_META} holds. */
export interface HeadDifferencesRecord {
  /** HEAD when the paths were listed. */
  commit: string;
  paths: string[];
}

/** Most scope entries passed to git as pathspecs; a larger scope is diffed as the whole tree. */
const MAX_PATHSPECS = 1000;

/**
 * Tracked paths whose work-tree state differs from HEAD (`git diff --name-only HEAD`: unstaged and
 * staged edits, deletions), under `scope` when given (repo-relative files or directories, read
 * literally: a run limited to the files just saved stats only those), or null outside a git work tree,
 * before the first commit, or when git cannot run.
 */
export async function headDifferences(root: string, scope?: readonly string[]): Promise<Set<string> | null> {
  if (!existsSync(path.join(root, '.git'))) return null;
  const pathspecs = scope && scope.length <= MAX_PATHSPECS ? scope : [];
  try {
    const out = await simpleGit({ baseDir: root }).raw(['--literal-pathspecs', 'diff', '--name-only', '--no-renames', '-z', 'HEAD', '--', ...pathspecs]);
    return new Set(out.split('\0').filter((rel) => rel !== ''));
  } catch {
    // No commit yet (no HEAD to differ from), or git missing: nothing to record.
    return null;
  }
}

/**
 * Records, after an index run or a plan of queue jobs made at HEAD `commit`, which tracked paths
 * differed from HEAD then (`now`, from {@link headDifferences}): all of them for the whole tree; for a
 * run limited to `scope`, those inside it replace the recorded ones inside it, and the others are kept
 * when recorded at the same commit. Outside git (`commit` or `now` null) the record is cleared.
 */
export async function recordHeadDifferences(
  store: Pick<ChunkStore, 'getMeta' | 'setMeta'>,
  commit: string | null,
  now: ReadonlySet<string> | null,
  scope: readonly string[] | undefined,
): Promise<void> {
  if (commit === null || now === null) {
    await store.setMeta(HEAD_DIFFERENCES_META, '');
    return;
  }
  let paths = [...now];
  if (scope) {
    const previous = await readHeadDifferences(store);
    const kept = previous?.commit === commit ? previous.paths.filter((rel) => !inScope(scope, rel)) : [];
    paths = [...kept, ...paths.filter((rel) => inScope(scope, rel))];
  }
  const record: HeadDifferencesRecord = { commit, paths: paths.length > MAX_HEAD_DIFFERENCES ? [] : [...new Set(paths)].sort() };
  await store.setMeta(HEAD_DIFFERENCES_META, JSON.stringify(record));
}

/** The record of {@link HEAD_DIFFERENCES_META}, or null when none is kept or the value is unreadable. */
export async function readHeadDifferences(store: Pick<ChunkStore, 'getMeta'>): Promise<HeadDifferencesRecord | null> {
  const raw = await store.getMeta(HEAD_DIFFERENCES_META);
  if (raw === undefined || raw === '') return null;
  try {
    const parsed = JSON.parse(raw) as Partial<HeadDifferencesRecord> | null;
    if (typeof parsed?.commit !== 'string' || !Array.isArray(parsed.paths)) return null;
    return { commit: parsed.commit, paths: parsed.paths.filter((rel): rel is string => typeof rel === 'string') };
  } catch {
    // A value written by something else: no record, as before the first run.
    return null;
  }
}
