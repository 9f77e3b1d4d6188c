import { readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { changedAt } from './changed-at.js';
import { binaryByName } from './default-ignores.js';
import { createIgnoreFilter, type IgnoreFilter } from './ignore-filter.js';
import { inScope, reachesScope } from './path-scope.js';
import { readProjectFile, textOf } from './read-project-file.js';
import { tooLargeDetail } from './too-large-detail.js';

/** A file the walker selected for indexing. */
export interface WalkedFile {
  /** Repo-relative POSIX path. */
  path: string;
  /** Absolute path on disk. */
  absPath: string;
  /** Size in bytes. */
  size: number;
  /** Last modification time, ms since the Unix epoch (index runs take the newest files first). */
  mtimeMs: number;
  /** When the file last changed as freshness judges it ({@link changedAt}: modification or status change), ms since the Unix epoch. */
  changedMs: number;
}

/**
 * Why a file is left out: over the size limit (`too-large`; for a Jupyter notebook, its cell sources over
 * it, or its file over the most read to measure them; `detail` says which size was compared, see
 * `tooLargeDetail`), binary, unreadable, a symlink leading out of the project, a symlink whose target
 * does not exist (`symlink-broken`), a symlink in a chain of links that leads back to itself
 * (`symlink-loop`; both name the link's target in `detail`), a symlink to a file or directory inside the
 * project (`symlink-inside`: the target is indexed under its own path, once, and re-indexed when it
 * changes; `detail` names it), marked generated, minified (code whose lines average over 500
 * characters, a bundle: its windows would be unreadable and embed only each line's start), or holding
 * a private key (`secret`).
 */
export type SkipReason =
  | 'too-large'
  | 'binary'
  | 'unreadable'
  | 'symlink-outside'
  | 'symlink-broken'
  | 'symlink-loop'
  | 'symlink-inside'
  | 'generated'
  | 'minified'
  | 'secret';

/** A file the walker saw and left out, with the reason. */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  detail?: string;
  /**
   * Set by an index run when an earlier run had indexed the file and this one removed it (the skip is
   * why it counts among the run's `deleted`: a file grown past the size limit, now binary, ...).
   */
  removed?: true;
}

/** Options of {@link walkProject}. */
export interface WalkOptions {
  /** Absolute, real path of the project root. */
  root: string;
  /**
   * Files larger than this many bytes are skipped (reason `too-large`), except Jupyter notebooks whose
   * cell sources are at most this many bytes: a notebook over it is read to measure them (see {@link tooLargeDetail}).
   */
  maxFileBytes: number;
  /** Extra gitignore-syntax rules, e.g. the data directory when it lies inside the project. */
  extraIgnores?: readonly string[];
  /**
   * Only these repo-relative POSIX paths (files or directories, and everything below a directory);
   * default the whole tree. Paths that do not exist are simply not found.
   */
  scope?: readonly string[];
  /** The project's ignore rules; default a new filter over `root` and `extraIgnores`. */
  filter?: IgnoreFilter;
}

/** What {@link walkProject} found. */
export interface WalkResult {
  files: WalkedFile[];
  skipped: SkippedFile[];
  /**
   * Repo-relative directories the walk could not list (permissions, I/O errors; each is also in
   * `skipped` as `unreadable`): what lies below them is unknown, not gone.
   */
  unreadableDirs: string[];
}

/**
 * Whether the repo-relative `relPath` lies below a directory the walk could not list
 * (`WalkResult.unreadableDirs`): such a file is unknown, not gone, and its index entry stays, as an
 * unreadable file's does.
 */
export function belowUnreadableDir(walk: Pick<WalkResult, 'unreadableDirs'>, relPath: string): boolean {
  return walk.unreadableDirs.some((dir) => relPath.startsWith(`${dir}/`));
}

/**
 * Lists the files of a project that belong in the index: honours `.gitignore` and `.monoragignore` at
 * every level (negation and anchored patterns included), `.git/info/exclude`, the built-in rules of
 * {@link DEFAULT_IGNORE_RULES}, a size limit (a notebook over it is read, to measure its cell sources),
 * and binary detection by extension. Symbolic links are never followed: each one the rules admit is
 * listed in `skipped` (`symlink-inside`, `symlink-outside`, `symlink-broken` or `symlink-loop`), so a
 * file's content is indexed once, under its real path. Sorted by path.
 * @throws Error from the file system only for the root itself; unreadable entries below it are skipped.
 */
export async function walkProject({ root, maxFileBytes, extraIgnores = [], scope, filter }: WalkOptions): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  const skipped: SkippedFile[] = [];
  const unreadableDirs: string[] = [];
  const rules = filter ?? createIgnoreFilter({ root, extraIgnores });
  // Paths given to a scoped walk may lie below ignored directories; those are left out like in a full walk.
  const stack: string[] = [''];
  while (stack.length > 0) {
    const dirRel = stack.pop()!;
    const dirAbs = path.join(root, dirRel);
    let entries;
    try {
      entries = await readdir(dirAbs, { withFileTypes: true });
    } catch (error) {
      if (dirRel === '') throw error;
      const code = (error as NodeJS.ErrnoException).code;
      // A scoped walk races with the tree: a directory that vanished since the event is just gone.
      if (scope && (code === 'ENOENT' || code === 'ENOTDIR')) continue;
      skipped.push({ path: dirRel, reason: 'unreadable', detail: (error as Error).message });
      unreadableDirs.push(dirRel);
      continue;
    }
    for (const entry of entries) {
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      const abs = path.join(dirAbs, entry.name);
      if (entry.isSymbolicLink()) {
        if (scope && !inScope(scope, rel)) continue;
        const link = await resolveLink(root, abs);
        // A link the rules leave out is not listed, as any ignored file.
        if (!rules.isIgnored(rel, link.isDir)) skipped.push(linkSkip(rel, link));
        continue;
      }
      const isDir = entry.isDirectory();
      const isFile = entry.isFile();
      if (scope && !(isDir ? reachesScope(scope, rel) : inScope(scope, rel))) continue;
      if (rules.isIgnored(rel, isDir)) continue;
      if (isDir) {
        stack.push(rel);
        continue;
      }
      if (!isFile) continue;
      if (binaryByName(entry.name)) {
        skipped.push({ path: rel, reason: 'binary' });
        continue;
      }
      const info = await stat(abs).catch(() => undefined);
      const size = info ? info.size : -1;
      if (size < 0) {
        // readdir decodes names as UTF-8; a name that is not valid UTF-8 comes back with U+FFFD in it
        // and names no file, so say why instead of a bare "unreadable".
        skipped.push(entry.name.includes('\uFFFD')
          ? { path: rel, reason: 'unreadable', detail: 'the file name is not valid UTF-8; rename the file to index it' }
          : { path: rel, reason: 'unreadable' });
        continue;
      }
      const tooLarge = await tooLargeDetail({ path: rel, size, maxFileBytes, readText: async () => textOf(await readProjectFile(abs)) });
      if (tooLarge !== null) {
        skipped.push({ path: rel, reason: 'too-large', detail: tooLarge });
        continue;
      }
      files.push({ path: rel, absPath: abs, size, mtimeMs: info!.mtimeMs, changedMs: changedAt(info!) });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped, unreadableDirs };
}

/**
 * Where a symbolic link leads: `rel` is the repo-relative POSIX path of a target inside the root ('' for
 * the root); `to` is what the link holds (its target as written), for a link that leads nowhere.
 */
type LinkTarget =
  | { kind: 'broken'; isDir: false; to: string }
  | { kind: 'loop'; isDir: false; to: string }
  | { kind: 'outside'; isDir: boolean }
  | { kind: 'inside'; isDir: boolean; rel: string };

async function resolveLink(root: string, abs: string): Promise<LinkTarget> {
  let real: string;
  let isDir: boolean;
  try {
    real = await realpath(abs);
    isDir = (await stat(real)).isDirectory();
  } catch (error) {
    // A loop of links (ELOOP), a dangling link, or a target that vanished meanwhile: nothing to index.
    const to = await readlink(abs).catch(() => '?');
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? { kind: 'loop', isDir: false, to } : { kind: 'broken', isDir: false, to };
  }
  if (real !== root && !real.startsWith(root + path.sep)) return { kind: 'outside', isDir };
  return { kind: 'inside', isDir, rel: path.relative(root, real).split(path.sep).join('/') };
}

/** The skipped entry of a link the rules admit. */
function linkSkip(rel: string, link: LinkTarget): SkippedFile {
  if (link.kind === 'broken') return { path: rel, reason: 'symlink-broken', detail: `links to ${link.to}, which does not exist` };
  if (link.kind === 'loop') return { path: rel, reason: 'symlink-loop', detail: `links to ${link.to}, a chain of links that leads back to itself` };
  if (link.kind === 'outside') return { path: rel, reason: 'symlink-outside' };
  const target = link.rel === '' ? 'the project root' : link.isDir ? `${link.rel}/` : link.rel;
  return { path: rel, reason: 'symlink-inside', detail: `links to ${target}` };
}
