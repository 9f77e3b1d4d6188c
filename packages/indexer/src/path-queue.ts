import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Directory (inside the data directory) of queued paths waiting to be indexed. Each producer (a git
 * hook, `monorag index --paths` while another process holds the lock) writes one file: a temporary
 * name, then an atomic rename to `*.paths`, so a reader never sees half a file and nothing is lost
 * to a race. A file holds repo-relative paths, each ended by a NUL byte (as `git diff -z` writes them: a
 * file name may hold a newline, never a NUL); the entry `*` ({@link FULL_RUN_MARK}) asks for a full run.
 * A file without any NUL byte is one written by an older monorag (a hook installed before this format):
 * one path per line, read as such.
 */
export const PATH_QUEUE_DIR = 'queue';

/** Line of a queue file that asks for a full run. */
export const FULL_RUN_MARK = '*';

/** Paths read from the queue by {@link readPathQueue}. */
export interface QueuedPaths {
  /** Repo-relative paths, de-duplicated. */
  paths: string[];
  /** True when some producer asked for a full run. */
  full: boolean;
  /** Queue files read; none means the queue was empty. */
  entries: number;
  /** Deletes the files read (call after their paths were indexed, so a crash re-reads them). */
  remove(): void;
}

/** Adds paths (or {@link FULL_RUN_MARK}) to the queue of a data directory, each ended by a NUL byte (see {@link PATH_QUEUE_DIR}). */
export function enqueuePaths(dataDir: string, paths: readonly string[]): void {
  const dir = path.join(dataDir, PATH_QUEUE_DIR);
  mkdirSync(dir, { recursive: true });
  const name = `${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmp = path.join(dir, `${name}.tmp`);
  writeFileSync(tmp, paths.map((p) => `${p}\0`).join(''));
  renameSync(tmp, path.join(dir, `${name}.paths`));
}

/** Options of {@link readPathQueue}. */
export interface ReadPathQueueOptions {
  /**
   * Only queue files written at least this long ago (by mtime), in ms: files that runs which failed or
   * were stopped left behind, not the ones hook runs starting now are about to take. Default 0: every file.
   */
  minAgeMs?: number;
  /** Leave out this queue file (absolute path): the caller's own, read with {@link readQueueFile}. */
  except?: string;
}

/** Reads every complete queue file of a data directory (nothing is removed until `remove`); `options` narrows which. */
export function readPathQueue(dataDir: string, { minAgeMs = 0, except }: ReadPathQueueOptions = {}): QueuedPaths {
  const dir = path.join(dataDir, PATH_QUEUE_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.paths')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    names = [];
  }
  const files = names.map((name) => path.join(dir, name)).filter((file) => file !== except);
  const now = Date.now();
  return readFiles(minAgeMs > 0 ? files.filter((file) => (mtimeOf(file) ?? now) <= now - minAgeMs) : files);
}

/**
 * Reads one queue file (a git hook's own, whose path the hook passes to its run); `entries` is 0 when
 * it is gone (another run took it). Nothing is removed until `remove`.
 */
export function readQueueFile(file: string): QueuedPaths {
  return readFiles([file]);
}

/** The file's mtime in ms, or undefined when it is gone. */
function mtimeOf(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads the given queue files, skipping those another reader removed meanwhile. */
function readFiles(files: readonly string[]): QueuedPaths {
  const paths = new Set<string>();
  let full = false;
  const read: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      // Another reader removed it after indexing its paths.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    read.push(file);
    for (const entry of queueEntries(text)) {
      if (entry === FULL_RUN_MARK) full = true;
      else if (entry !== '') paths.add(entry);
    }
  }
  return {
    paths: [...paths],
    full,
    entries: read.length,
    remove() {
      for (const file of read) rmSync(file, { force: true });
    },
  };
}

/**
 * The entries of a queue file's text: NUL-ended (the format of this monorag), or, in a file holding no
 * NUL byte (one an older monorag's hook wrote), one per line. Empty entries are kept (the caller drops them).
 */
export function queueEntries(text: string): string[] {
  return text.split(text.includes('\0') ? '\0' : '\n');
}

/** Number of queue files waiting (each is one git operation or one request). */
export function pathQueueLength(dataDir: string): number {
  try {
    return readdirSync(path.join(dataDir, PATH_QUEUE_DIR)).filter((n) => n.endsWith('.paths')).length;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}
