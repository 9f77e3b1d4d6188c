import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { BINARY_EXTENSIONS, DEFAULT_IGNORE_RULES } from './default-ignores.js';

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
export type SkipReason = 'too-large' | 'binary' | 'unreadable' | 'symlink-outside' | 'generated';

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
}

/** What {@link walkProject} found. */
export interface WalkResult {
  files: WalkedFile[];
  skipped: SkippedFile[];
}

interface Matcher {
  /** Repo-relative POSIX directory the rules belong to ('' for the root). */
  base: string;
  ig: Ignore;
}

const IGNORE_FILES = ['.gitignore', '.monoragignore'] as const;

async function readIgnoreRules(dir: string): Promise<string[]> {
  const rules: string[] = [];
  for (const name of IGNORE_FILES) {
    const text = await readFile(path.join(dir, name), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EISDIR') return '';
      throw error;
    });
    if (text) rules.push(...text.split(/\r?\n/));
  }
  return rules;
}

/**
 * Decides with git's precedence: the deepest `.gitignore` whose rules say something about the path
 * wins; within one directory, `.monoragignore` rules come after `.gitignore` rules and so win.
 */
function isIgnored(matchers: readonly Matcher[], relPath: string, isDir: boolean): boolean {
  for (let i = matchers.length - 1; i >= 0; i--) {
    const m = matchers[i]!;
    const rel = m.base === '' ? relPath : relPath.slice(m.base.length + 1);
    const result = m.ig.test(isDir ? `${rel}/` : rel);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/**
 * Lists the files of a project that belong in the index: honours `.gitignore` and `.monoragignore` at
 * every level (negation and anchored patterns included), `.git/info/exclude`, the built-in rules of
 * {@link DEFAULT_IGNORE_RULES}, a size limit, and binary detection by extension. Symbolic links are
 * followed only when their target lies inside the root. Sorted by path.
 * @throws Error from the file system only for the root itself; unreadable entries below it are skipped.
 */
export async function walkProject({ root, maxFileBytes, extraIgnores = [] }: WalkOptions): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  const skipped: SkippedFile[] = [];
  const rootIg = ignore().add([...DEFAULT_IGNORE_RULES, ...extraIgnores]);
  const exclude = await readFile(path.join(root, '.git', 'info', 'exclude'), 'utf8').catch(() => '');
  if (exclude) rootIg.add(exclude.split(/\r?\n/));
  rootIg.add(await readIgnoreRules(root));

  const stack: Array<{ rel: string; matchers: Matcher[] }> = [{ rel: '', matchers: [{ base: '', ig: rootIg }] }];
  while (stack.length > 0) {
    const { rel: dirRel, matchers } = stack.pop()!;
    const dirAbs = path.join(root, dirRel);
    let entries;
    try {
      entries = await readdir(dirAbs, { withFileTypes: true });
    } catch (error) {
      if (dirRel === '') throw error;
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
        if (!target) {
          skipped.push({ path: rel, reason: 'symlink-outside' });
          continue;
        }
        // Directories behind links are not followed (cycles); linked files are read.
        isDir = false;
        isFile = target.isFile;
      }
      if (isIgnored(matchers, rel, isDir)) continue;
      if (isDir) {
        const rules = await readIgnoreRules(abs).catch(() => []);
        const child = rules.some((r) => r.trim() !== '' && !r.startsWith('#')) ? [...matchers, { base: rel, ig: ignore().add(rules) }] : matchers;
        stack.push({ rel, matchers: child });
        continue;
      }
      if (!isFile) continue;
      const ext = path.extname(entry.name).slice(1).toLowerCase();
      if (BINARY_EXTENSIONS.has(ext)) {
        skipped.push({ path: rel, reason: 'binary' });
        continue;
      }
      const stat = await lstat(abs).catch(() => undefined);
      const size = stat?.isSymbolicLink() ? (await statSize(abs)) : (stat?.size ?? -1);
      if (size < 0) {
        skipped.push({ path: rel, reason: 'unreadable' });
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

async function statSize(abs: string): Promise<number> {
  return stat(abs).then((s) => s.size).catch(() => -1);
}

async function resolveLinkInside(root: string, abs: string): Promise<{ isFile: boolean } | undefined> {
  try {
    const real = await realpath(abs);
    if (real !== root && !real.startsWith(root + path.sep)) return undefined;
    const s = await stat(real);
    return { isFile: s.isFile() };
  } catch {
    // A dangling link: nothing to index.
    return undefined;
  }
}
