import { statSync } from 'node:fs';

/** Options of {@link watchRootPresence}. */
export interface RootPresenceOptions {
  /** Absolute real path of the project root. */
  root: string;
  /** How often the root is checked, in ms; default 1000 (one stat per check). */
  intervalMs?: number;
  /**
   * Whether the file watcher still watches the root (ready and holding its watches). A watcher whose
   * root left and came back between two checks holds none: it is taken as lost and started again.
   */
  watching: () => boolean;
  /** Called once when the root is gone (moved away, deleted, replaced by a file). */
  onLost: () => void;
  /** Called when the root is back after {@link onLost}, was replaced (another directory under the same path), or the watcher lost its watches. */
  onBack: () => void;
}

/** A running check of a project root (see {@link watchRootPresence}). */
export interface RootPresence {
  /**
   * Whether the root is, right now, the directory the watcher holds: false while it is gone, and as soon
   * as another directory stands at its path (a copy put in its place), before the next periodic check
   * restarts the watcher. One stat.
   */
  intact(): boolean;
  /** Stops the checks. */
  stop(): void;
}

/** The identity of a directory (device and inode), or undefined when no directory is at `dir`. */
function directoryIdentity(dir: string): string | undefined {
  try {
    const info = statSync(dir);
    return info.isDirectory() ? `${info.dev}:${info.ino}` : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Checks every `intervalMs` that a watched project's root is still the directory the watcher holds.
 * A file watcher loses its watches when the project folder is moved away (chokidar drops the root's
 * watch with it) and does not get them back when the folder returns, so changes would go unseen while
 * the server still called itself watching (a trial: moved away and back, new files were never indexed
 * and results said fresh). `onLost` lets the caller stop the watcher and say so; `onBack` lets it
 * start a new one and catch up with a whole-tree run. The timer does not keep the process alive.
 */
export function watchRootPresence({ root, intervalMs = 1000, watching, onLost, onBack }: RootPresenceOptions): RootPresence {
  let known = directoryIdentity(root);
  let lost = known === undefined;
  const timer = setInterval(() => {
    const now = directoryIdentity(root);
    if (now === undefined) {
      if (!lost) {
        lost = true;
        onLost();
      }
      return;
    }
    if (lost || now !== known || !watching()) {
      known = now;
      lost = false;
      onBack();
    }
  }, intervalMs);
  timer.unref();
  return {
    intact: () => !lost && directoryIdentity(root) === known,
    stop: () => clearInterval(timer),
  };
}
