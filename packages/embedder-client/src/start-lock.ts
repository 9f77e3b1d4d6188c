import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, MonoragError, type Logger } from '@monorag/shared';
import { isProcessAlive } from './process-alive.js';

/** Options of {@link acquireStartLock}. */
export interface StartLockOptions {
  /** Lock file path, e.g. `<dataDir>/embedder.lock`. */
  file: string;
  /** A lock older than this (ms) is stale even if its holder still lives (a hung start). */
  staleMs: number;
  /** Give up waiting for another holder after this many ms. */
  waitMs: number;
  /** Poll interval while waiting, in ms. */
  pollMs?: number;
  logger?: Logger;
}

/** Releases a lock taken by {@link acquireStartLock}; safe to call twice. */
export type ReleaseLock = () => Promise<void>;

interface LockContent {
  pid: number;
  token: string;
}

async function readLock(file: string): Promise<{ content: LockContent | undefined; ageMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    let content: LockContent | undefined;
    try {
      content = JSON.parse(text) as LockContent;
    } catch {
      content = undefined; // being written right now; its age decides
    }
    return { content, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Takes an exclusive lock file (created with O_EXCL) holding `{pid, token}`. While another live
 * process holds a fresh lock, waits; a lock whose pid is dead, or older than `staleMs`, is removed.
 * Used so that two CLI processes do not start two embedding servers for one data directory.
 * @throws MonoragError `EMBEDDER_UNAVAILABLE` naming the lock file after `waitMs` of waiting.
 */
export async function acquireStartLock({ file, staleMs, waitMs, pollMs = 200, logger }: StartLockOptions): Promise<ReleaseLock> {
  const token = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, token } satisfies LockContent));
      } finally {
        closeSync(fd);
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        const current = await readLock(file);
        if (current?.content?.token === token) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = await readLock(file);
    if (held === undefined) continue;
    const deadHolder = held.content !== undefined && !isProcessAlive(held.content.pid);
    if (deadHolder || held.ageMs > staleMs) {
      // Re-read just before removing, so a lock that was replaced meanwhile is left alone.
      const again = await readLock(file);
      if (again?.content?.token === held.content?.token) {
        logger?.warn({ file, holder: held.content?.pid, ageMs: held.ageMs }, 'removing stale embedder start lock');
        await rm(file, { force: true });
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new MonoragError(
        ErrorCode.EMBEDDER_UNAVAILABLE,
        `Another monorag process (pid ${held.content?.pid ?? 'unknown'}) is starting the embedding server and did not finish within ${Math.round(waitMs / 1000)} s. ` +
          `Wait for it, or stop it and delete ${file}.`,
      );
    }
    await sleep(pollMs);
  }
}
