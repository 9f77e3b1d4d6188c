import { isProcessAlive } from '@monorag/shared';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Directory inside the data directory where each process watching the project (`monorag watch`, `serve`,
 * `gateway`) keeps a file named after its pid while it watches, so that other processes (`status`, `search`)
 * can tell their users that a watcher will pick changes up.
 */
export const WATCHERS_DIR = 'watchers';

/** A registration made by {@link registerWatcher}. */
export interface WatcherRegistration {
  /** Removes this process's file; safe to call twice. */
  release(): void;
}

/**
 * Records that this process watches the project of `dataDir` (which must exist), until `release()`: a
 * file holding the pid and the absolute project `root` it watches, one per line. Files of processes that
 * are gone (killed without releasing) are removed on the way.
 * @throws the file system's error when the file cannot be written.
 */
export function registerWatcher(dataDir: string, root: string): WatcherRegistration {
  const dir = path.join(dataDir, WATCHERS_DIR);
  mkdirSync(dir, { recursive: true });
  for (const pid of registeredPids(dir)) if (!isProcessAlive(pid)) rmSync(path.join(dir, String(pid)), { force: true });
  const file = path.join(dir, String(process.pid));
  writeFileSync(file, `${process.pid}\n${root}\n`);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      rmSync(file, { force: true });
    },
  };
}

/**
 * The pid of a live process watching the project at `root` whose data directory is `dataDir` (the lowest
 * when several do), or null. A registration naming another root is left out: a project folder copied or
 * moved with its data directory carries the files of the processes watching the original (a trial: the
 * copy was said to be watched). A file without a root (written before roots were recorded) counts. Reads only.
 */
export function liveWatcher(dataDir: string, root: string): number | null {
  const dir = path.join(dataDir, WATCHERS_DIR);
  const live = registeredPids(dir)
    .filter((pid) => isProcessAlive(pid) && [undefined, root].includes(registeredRoot(dir, pid)))
    .sort((a, b) => a - b);
  return live[0] ?? null;
}

/** The project root a registration file names (its second line), or undefined when it names none or cannot be read. */
function registeredRoot(dir: string, pid: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, String(pid)), 'utf8');
  } catch {
    // Released between the listing and the read: its process no longer watches, and is alive-checked anyway.
    return undefined;
  }
  const root = text.split('\n')[1];
  return root ? root : undefined;
}

/** The pids named by the files of `dir`; none when it does not exist or cannot be read. */
function registeredPids(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    // No watcher ever registered (or the directory is unreadable): none is known.
    return [];
  }
  return names.filter((name) => /^[1-9]\d*$/.test(name)).map(Number);
}
