import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { BINARY_EXTENSIONS } from './default-ignores.js';
import { createIgnoreFilter, type IgnoreFilter } from './ignore-filter.js';
import { inScope, reachesScope } from './path-scope.js';

/** A file the walker selected for indexing. */
export interface WalkedFile {
  /** Repo-relative POSIX path. */
  path: string;
  /** Absolute path on disk. */
  absPath: string;
  /** Size in bytes. */
  size: number;
}

/** Why a file was left out. */
/**
 * Why a file is left out: over the size limit, binary, unreadable, a symlink leading out of the
 * project, a symlink whose target does not exist (`symlink-broken`), marked generated, minified (code
 * whose lines average over 500 characters, a bundle: its windows would be unreadable and embed only
 * each line's start), or holding a private key (`secret`).
 */
export type SkipReason = 'too-large' | 'binary' | 'unreadable' | 'symlink-outside' | 'symlink-broken' | 'generated' | 'minified' | 'secret';

/** A file the walker saw and left out, with the reason. */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  detail?: string;
}

/** Options of {@link walkProject}. */
export interface WalkOptions {
  /** Absolute, real path of the project root. */
  root: string;
  /** Files larger than this many bytes are skipped (reason `too-large`). */
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
}

/**
 * Lists the files of a project that belong in the index: honours `.gitignore` and `.monoragignore` at
 * every level (negation and anchored patterns included), `.git/info/exclude`, the built-in rules of
 * {@link DEFAULT_IGNORE_RULES}, a size limit, and binary detection by extension. Symbolic links are
 * followed only when their target lies inside the root. Sorted by path.
 * @throws Error from the file system only for the root itself; unreadable entries below it are skipped.
 */
export async function walkProject({ root, maxFileBytes, extraIgnores = [], scope, filter }: WalkOptions): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  const skipped: SkippedFile[] = [];
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
      continue;
    }
    for (const entry of entries) {
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      const abs = path.join(dirAbs, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await resolveLinkInside(root, abs);
        if (target === 'outside' || target === 'broken') {
          if (!scope || inScope(scope, rel)) skipped.push({ path: rel, reason: target === 'outside' ? 'symlink-outside' : 'symlink-broken' });
          continue;
        }
        // Directories behind links are not followed (cycles); linked files are read.
        isDir = false;
        isFile = target.isFile;
      }
      if (scope && !(isDir ? reachesScope(scope, rel) : inScope(scope, rel))) continue;
      if (rules.isIgnored(rel, isDir)) continue;
      if (isDir) {
        stack.push(rel);
        continue;
      }
      if (!isFile) continue;
      const ext = path.extname(entry.name).slice(1).toLowerCase();
      if (BINARY_EXTENSIONS.has(ext)) {
        skipped.push({ path: rel, reason: 'binary' });
        continue;
      }
      // stat follows a link (already checked to stay inside the root) to the file it names.
      const size = await stat(abs).then((s) => s.size).catch(() => -1);
      if (size < 0) {
        // readdir decodes names as UTF-8; a name that is not valid UTF-8 comes back with U+FFFD in it
        // and names no file, so say why instead of a bare "unreadable".
        skipped.push(entry.name.includes('\uFFFD')
          ? { path: rel, reason: 'unreadable', detail: 'the file name is not valid UTF-8; rename the file to index it' }
          : { path: rel, reason: 'unreadable' });
        continue;
      }
      if (size > maxFileBytes) {
        skipped.push({ path: rel, reason: 'too-large', detail: `${size} bytes > ${maxFileBytes}` });
        continue;
      }
      files.push({ path: rel, absPath: abs, size });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped };
}

async function resolveLinkInside(root: string, abs: string): Promise<{ isFile: boolean } | 'outside' | 'broken'> {
  let real: string;
  try {
    real = await realpath(abs);
  } catch {
    // A dangling link (or a loop of links): nothing to index.
    return 'broken';
  }
  if (real !== root && !real.startsWith(root + path.sep)) return 'outside';
  try {
    return { isFile: (await stat(real)).isFile() };
  } catch {
    // The target vanished between realpath and stat.
    return 'broken';
  }
}
