import { isProcessAlive } from '@monorag/shared';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Name of the cross-process indexing lock inside the data directory; the git hooks read it too. */
export const INDEX_LOCK_FILE = 'index.lock';

/** A held indexing lock. */
export interface IndexLock {
  /** Removes the lock file if it is still ours; safe to call twice. */
  release(): void;
}

/** Options of {@link acquireIndexLock}. */
export interface IndexLockOptions {
  /** The project's data directory (must exist). */
  dataDir: string;
  /** How long to wait for another live holder, in ms; 0 (default) tries once. */
  waitMs?: number;
  /** Poll interval while waiting, in ms; default 100. */
  pollMs?: number;
  /**
   * Called once, when the lock is found held by another live process and the call starts to wait
   * (only when `waitMs` > 0): with the holder's pid, or null when the holder is not known yet (its
   * lock file is being written).
   */
  onWait?: (holderPid: number | null) => void;
}

/**
 * The pid of the live process holding the indexing lock of `dataDir`, or null. The lock file holds
 * the holder's pid as plain decimal text, so that a shell hook can test it with `kill -0`.
 */
export function indexLockHolder(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, INDEX_LOCK_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const pid = Number.parseInt(text.trim(), 10);
  // An empty file is a lock being written this instant: count it as held by an unknown live process.
  if (!Number.isInteger(pid)) return text.trim() === '' ? -1 : null;
  return isProcessAlive(pid) ? pid : null;
}

/**
 * Takes the project's indexing lock, so that two processes (a watcher, `monorag index`, a git hook's
 * background run) never index one project at once. The lock is a file created with O_EXCL holding
 * the pid; a lock whose process is dead (e.g. killed with SIGKILL) is taken over.
 * `onWait` hears when the call starts waiting for another holder.
 * @returns the lock, or null when another live process still held it after `waitMs`.
 */
export async function acquireIndexLock({ dataDir, waitMs = 0, pollMs = 100, onWait }: IndexLockOptions): Promise<IndexLock | null> {
  const file = path.join(dataDir, INDEX_LOCK_FILE);
  const deadline = Date.now() + waitMs;
  let waiting = false;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          if (indexLockHolderPid(file) === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = indexLockHolder(dataDir);
    if (holder === null) {
      // Dead holder: remove its file, unless it was replaced by a live one meanwhile.
      const pid = indexLockHolderPid(file);
      if (pid === undefined || (pid !== null && !isProcessAlive(pid))) rmSync(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) return null;
    if (!waiting) {
      waiting = true;
      onWait?.(holder === -1 ? null : holder);
    }
    await sleep(pollMs);
  }
}

/** The pid written in a lock file; null for an empty or unparsable one, undefined when it is gone. */
function indexLockHolderPid(file: string): number | null | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) ? pid : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
