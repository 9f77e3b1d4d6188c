import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Directory (inside the data directory) of queued paths waiting to be indexed. Each producer (a git
 * hook, `monorag index --paths` while another process holds the lock) writes one file: a temporary
 * name, then an atomic rename to `*.paths`, so a reader never sees half a file and nothing is lost
 * to a race. A file holds one repo-relative path per line; the line `*` asks for a full run.
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

/** Adds paths (or {@link FULL_RUN_MARK}) to the queue of a data directory. */
export function enqueuePaths(dataDir: string, paths: readonly string[]): void {
  const dir = path.join(dataDir, PATH_QUEUE_DIR);
  mkdirSync(dir, { recursive: true });
  const name = `${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmp = path.join(dir, `${name}.tmp`);
  writeFileSync(tmp, paths.map((p) => `${p}\n`).join(''));
  renameSync(tmp, path.join(dir, `${name}.paths`));
}

/** Reads every complete queue file of a data directory (nothing is removed until `remove`). */
export function readPathQueue(dataDir: string): QueuedPaths {
  const dir = path.join(dataDir, PATH_QUEUE_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.paths')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    names = [];
  }
  const paths = new Set<string>();
  let full = false;
  const read: string[] = [];
  for (const name of names) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, name), 'utf8');
    } catch (error) {
      // Another reader removed it after indexing its paths.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    read.push(name);
    for (const line of text.split('\n')) {
      if (line === FULL_RUN_MARK) full = true;
      else if (line !== '') paths.add(line);
    }
  }
  return {
    paths: [...paths],
    full,
    entries: read.length,
    remove() {
      for (const name of read) rmSync(path.join(dir, name), { force: true });
    },
  };
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
