import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { DEFAULT_IGNORE_RULES } from './default-ignores.js';

/** Names of the per-directory ignore files, in precedence order (later wins within one directory). */
export const IGNORE_FILE_NAMES: readonly string[] = ['.gitignore', '.monoragignore'];

/** True when a repo-relative path names a file whose change re-decides which files belong in the index. */
export function isIgnoreRulesFile(relPath: string): boolean {
  return IGNORE_FILE_NAMES.includes(path.posix.basename(relPath)) || relPath === '.git/info/exclude';
}

/**
 * True when the last component of `relPath` is `.git`: git's metadata directory, or the file a
 * submodule or linked worktree has in its place (`gitdir: ../../.git/modules/x`). Such a path is left
 * out at every depth whatever the rule files say (a `!.git` line does not bring it back): it is never
 * indexed, watched or served.
 */
function isGitMetadata(relPath: string): boolean {
  return relPath === '.git' || relPath.endsWith('/.git');
}

/** Options of {@link createIgnoreFilter}. */
export interface IgnoreFilterOptions {
  /** Absolute real path of the project root. */
  root: string;
  /** Extra gitignore-syntax rules applied at the root (e.g. the data directory). */
  extraIgnores?: readonly string[];
}

/**
 * The ignore rules of one project, shared by the walker and the watcher so both select the same files:
 * {@link DEFAULT_IGNORE_RULES}, extra rules, `.git/info/exclude`, and `.gitignore` / `.monoragignore` at
 * every level with git's precedence; a path named `.git` (file or directory) at any depth is always
 * ignored ({@link isGitMetadata}). Rule files are read synchronously once per directory and cached
 * (the watcher's filter must be synchronous); call `reset` after an ignore file changed.
 */
export interface IgnoreFilter {
  /**
   * True when the repo-relative POSIX `relPath` is ignored by the rules of its own directory chain;
   * ancestors are not checked (a walker only reaches a path through its non-ignored parents).
   */
  isIgnored(relPath: string, isDir: boolean): boolean;
  /** True when `relPath` or any directory above it is ignored (for paths reached without a walk). */
  isPathIgnored(relPath: string, isDir: boolean): boolean;
  /** Forgets every cached rule file. */
  reset(): void;
}

interface Matcher {
  /** Repo-relative POSIX directory the rules belong to ('' for the root). */
  base: string;
  ig: Ignore;
}

function readRules(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No rule file (or a directory of that name, one we may not read, or a link that loops) means no rules here.
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR' || code === 'EACCES' || code === 'ELOOP') return [];
    throw error;
  }
}

function meaningful(rules: readonly string[]): boolean {
  return rules.some((r) => r.trim() !== '' && !r.startsWith('#'));
}

/** Creates the {@link IgnoreFilter} of a project. */
export function createIgnoreFilter({ root, extraIgnores = [] }: IgnoreFilterOptions): IgnoreFilter {
  const chains = new Map<string, Matcher[]>();

  const chainOf = (dirRel: string): Matcher[] => {
    const cached = chains.get(dirRel);
    if (cached) return cached;
    let chain: Matcher[];
    if (dirRel === '') {
      const rootIg = ignore().add([...DEFAULT_IGNORE_RULES, ...extraIgnores]);
      rootIg.add(readRules(path.join(root, '.git', 'info', 'exclude')));
      for (const name of IGNORE_FILE_NAMES) rootIg.add(readRules(path.join(root, name)));
      chain = [{ base: '', ig: rootIg }];
    } else {
      const parent = chainOf(parentOf(dirRel));
      const rules = IGNORE_FILE_NAMES.flatMap((name) => readRules(path.join(root, dirRel, name)));
      chain = meaningful(rules) ? [...parent, { base: dirRel, ig: ignore().add(rules) }] : parent;
    }
    chains.set(dirRel, chain);
    return chain;
  };

  const isIgnored = (relPath: string, isDir: boolean): boolean => {
    if (isGitMetadata(relPath)) return true;
    const matchers = chainOf(parentOf(relPath));
    // git's precedence: the deepest rule file that says something about the path wins.
    for (let i = matchers.length - 1; i >= 0; i--) {
      const m = matchers[i]!;
      const rel = m.base === '' ? relPath : relPath.slice(m.base.length + 1);
      const result = m.ig.test(isDir ? `${rel}/` : rel);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  };

  return {
    isIgnored,
    isPathIgnored(relPath, isDir) {
      const parts = relPath.split('/');
      for (let i = 1; i < parts.length; i++) {
        if (isIgnored(parts.slice(0, i).join('/'), true)) return true;
      }
      return isIgnored(relPath, isDir);
    },
    reset() {
      chains.clear();
    },
  };
}

function parentOf(relPath: string): string {
  const slash = relPath.lastIndexOf('/');
  return slash < 0 ? '' : relPath.slice(0, slash);
}
