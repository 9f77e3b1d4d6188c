import { ErrorCode, MonoragError } from '@monorag/shared';
import { isIgnoreRulesFile } from './ignore-filter.js';

/**
 * Helpers for a set of repo-relative POSIX paths that limits an index run (the "scope"): a path is
 * in scope when it equals a scope path or lies below one.
 */

/** True when `relPath` equals a scope path or lies below one. */
export function inScope(scope: readonly string[], relPath: string): boolean {
  return scope.some((s) => s === '' || s === relPath || relPath.startsWith(`${s}/`));
}

/** True when a walk must enter directory `dirRel` to reach some scope path (it is in scope or above one). */
export function reachesScope(scope: readonly string[], dirRel: string): boolean {
  return scope.some((s) => s === '' || s === dirRel || s.startsWith(`${dirRel}/`) || dirRel.startsWith(`${s}/`));
}

/**
 * Normalises paths given to an incremental run: POSIX separators (a backslash is one only on Windows:
 * elsewhere it is a character a file name may hold, `src/back\\slash.js`), no leading `./` or trailing
 * `/`, duplicates removed. `.` or an empty path means the whole tree (returns `['']`).
 * @throws MonoragError `INVALID_ARGUMENT` naming the path when it is absolute or leaves the root (`..`).
 */
export function normaliseScope(paths: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const raw of paths) {
    let p = (process.platform === 'win32' ? raw.replace(/\\/g, '/') : raw).replace(/\/+/g, '/').replace(/^(\.\/)+/, '').replace(/\/$/, '');
    if (p === '.') p = '';
    if (p.startsWith('/') || p === '..' || p.startsWith('../') || p.includes('/../') || p.endsWith('/..')) {
      throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `path "${raw}" is not repo-relative; give paths relative to the project root.`);
    }
    out.add(p);
  }
  return out.has('') ? [''] : [...out].sort();
}

/**
 * The scope of an index run (or a plan of file jobs) over `paths`: undefined for a full run (no paths,
 * the root, or a changed `.gitignore` / `.monoragignore` / `.git/info/exclude`, which re-decides
 * which files belong), else the normalised paths.
 * @throws MonoragError `INVALID_ARGUMENT` as {@link normaliseScope} does.
 */
export function runScope(paths: readonly string[] | undefined): string[] | undefined {
  if (paths === undefined) return undefined;
  const scope = normaliseScope(paths);
  if (scope.includes('') || scope.some(isIgnoreRulesFile)) return undefined;
  return scope;
}
