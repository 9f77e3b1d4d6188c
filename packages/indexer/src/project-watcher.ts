import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '@monorag/shared';
import { isIgnoreRulesFile, type IgnoreFilter } from './ignore-filter.js';

/** Options of {@link startProjectWatcher}. */
export interface ProjectWatcherOptions {
  /** Absolute real path of the project root. */
  root: string;
  /** The project's ignore rules: ignored directories are never watched. */
  filter: IgnoreFilter;
  /** Called with repo-relative paths that may have changed (files or directories, existing or not). */
  onPaths: (paths: string[]) => void;
  /** Called when an ignore-rules file changed: the set of indexed files must be re-decided. */
  onRulesChanged: () => void;
  /**
   * Most directories watched natively; above it (or when the system's inotify limit is hit, ENOSPC)
   * the watcher warns and polls instead. Default: 80% of `/proc/sys/fs/inotify/max_user_watches`
   * where readable, else 8192 (the kernel's historic default limit).
   */
  maxWatches?: number;
  /** Poll interval of the fallback, in ms; default 1000. */
  pollIntervalMs?: number;
  /** Force polling (e.g. network file systems). */
  usePolling?: boolean;
  logger?: Logger;
}

/** A running watcher. */
export interface ProjectWatcher {
  /** Resolves once the initial scan is done and every watch is in place. */
  ready: Promise<void>;
  /** `native` (one inotify / FSEvents watch per non-ignored directory) or `polling`. */
  mode(): 'native' | 'polling';
  /** Directories currently watched (the native mode's watch count). */
  watchedDirectories(): number;
  close(): Promise<void>;
}

/**
 * The directories of `.git` that are watched although `.git` is ignored: they lead to
 * `.git/info/exclude`, whose rules the project's ignore filter reads, so its edits must reach
 * `onRulesChanged` as those of a `.gitignore` do. Every other directory of `.git` stays unwatched.
 */
const GIT_EXCLUDE_DIRS: readonly string[] = ['.git', '.git/info'];
/** The repo-relative path of git's per-repository exclude file. */
const GIT_EXCLUDE_FILE = '.git/info/exclude';

/** The system's inotify watch limit where known (Linux), else undefined. */
function systemWatchLimit(): number | undefined {
  try {
    const n = Number.parseInt(readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8'), 10);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch (error) {
    // Not Linux, or /proc not mounted: fall back to the documented default below.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Watches a project tree with chokidar and reports repo-relative paths that may have changed. The
 * ignore rules are applied when choosing what to watch, so ignored trees (node_modules, build output)
 * are never entered. In native mode only directories are watched: a directory's watch reports every
 * change of its entries (the `raw` events carry the entry name), so a tree costs one watch per
 * non-ignored directory rather than one per file. `.git` and `.git/info` are watched too (not the rest
 * of `.git`), so that an edit of `.git/info/exclude` is reported as a rule change. When the watch
 * limit would be exceeded the watcher warns and falls back to polling (which needs per-file stat
 * polling, so files are watched too).
 */
export function startProjectWatcher(options: ProjectWatcherOptions): ProjectWatcher {
  const { root, filter, onPaths, onRulesChanged, logger } = options;
  const limit = options.maxWatches ?? Math.floor((systemWatchLimit() ?? 8192) * 0.8);
  let watcher: FSWatcher;
  let polling = options.usePolling ?? false;
  let closed = false;

  const rel = (abs: string): string | undefined => {
    const r = path.relative(root, abs);
    if (r === '' || r.startsWith('..') || path.isAbsolute(r)) return undefined;
    return r.split(path.sep).join('/');
  };

  const report = (abs: string): void => {
    const r = rel(abs);
    if (r === undefined) return;
    if (isIgnoreRulesFile(r)) {
      onRulesChanged();
      return;
    }
    const isDir = directoryOrMissing(abs);
    // A deleted path has no type any more: it is dropped only when ignored as a file and as a directory.
    if (isDir === undefined ? filter.isPathIgnored(r, false) && filter.isPathIgnored(r, true) : filter.isPathIgnored(r, isDir)) return;
    onPaths([r]);
  };

  const start = (usePolling: boolean): FSWatcher => {
    const w = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      usePolling,
      interval: options.pollIntervalMs ?? 1000,
      binaryInterval: options.pollIntervalMs ?? 1000,
      ignored: (abs: string, stats?: Stats) => {
        const r = rel(abs);
        if (r === undefined) return false;
        // Gone already: not a directory to watch (its event is still reported through `raw`).
        const isDir = stats ? stats.isDirectory() : (directoryOrMissing(abs) ?? false);
        // `.git/info/exclude` holds ignore rules: the two directories above it are watched (two watches).
        if (isDir && GIT_EXCLUDE_DIRS.includes(r)) return false;
        // Native mode watches directories only; their watches report every entry's changes.
        if (!isDir && !usePolling) return true;
        if (r === GIT_EXCLUDE_FILE) return false;
        return filter.isPathIgnored(r, isDir);
      },
    });
    w.on('raw', (_event, name, details) => {
      const watchedPath = (details as { watchedPath?: string } | undefined)?.watchedPath;
      if (!watchedPath || !name) return;
      report(path.join(watchedPath, name));
    });
    w.on('all', (_event: string, abs: string) => report(abs));
    w.on('error', (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'ENOSPC' || code === 'EMFILE') && !polling && !closed) {
        logger?.warn(
          { code },
          `The system's file watch limit was reached (${code}); falling back to polling every ${options.pollIntervalMs ?? 1000} ms. ` +
            'Raise fs.inotify.max_user_watches (e.g. sysctl fs.inotify.max_user_watches=524288) or add large directories to .monoragignore.',
        );
        polling = true;
        const old = watcher;
        watcher = start(true);
        void old.close();
        onRulesChanged();
        return;
      }
      logger?.warn({ err: (error as Error).message }, 'file watcher error');
    });
    return w;
  };

  if (!polling) {
    const dirs = countWatchableDirs(root, filter, limit + 1);
    if (dirs > limit) {
      logger?.warn(
        { directories: `>${limit}`, limit },
        `The project has more than ${limit} directories to watch, above the watch budget; polling instead. ` +
          'Add generated or vendored directories to .monoragignore, or raise fs.inotify.max_user_watches.',
      );
      polling = true;
    }
  }
  watcher = start(polling);
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    ready,
    mode: () => (polling ? 'polling' : 'native'),
    watchedDirectories: () => Object.keys(watcher.getWatched()).filter((d) => d === root || rel(d) !== undefined).length,
    async close() {
      closed = true;
      await watcher.close();
    },
  };
}

/** Counts non-ignored directories (root included) and those of {@link GIT_EXCLUDE_DIRS} there are, stopping at `stopAt`. */
function countWatchableDirs(root: string, filter: IgnoreFilter, stopAt: number): number {
  let count = GIT_EXCLUDE_DIRS.filter((d) => directoryOrMissing(path.join(root, d)) === true).length;
  const stack = [''];
  while (stack.length > 0 && count < stopAt) {
    const dirRel = stack.pop()!;
    count++;
    let entries;
    try {
      entries = readdirSync(path.join(root, dirRel), { withFileTypes: true });
    } catch (error) {
      // Unreadable directory: chokidar will not watch it either. One gone meanwhile (the project folder
      // deleted while a rule change restarts the watcher) has nothing to watch (a trial: the process died).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw error;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const r = dirRel === '' ? e.name : `${dirRel}/${e.name}`;
      if (!filter.isIgnored(r, true)) stack.push(r);
    }
  }
  return count;
}

/** True for a directory, false for anything else, undefined when nothing is there (not following links). */
function directoryOrMissing(abs: string): boolean | undefined {
  try {
    return lstatSync(abs).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
