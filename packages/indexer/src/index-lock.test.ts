import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireIndexLock, indexLockHolder, INDEX_LOCK_FILE } from './index-lock.js';
import { enqueuePaths, pathQueueLength, readPathQueue } from './path-queue.js';

describe('acquireIndexLock', () => {
  it('is exclusive, records the pid, and is taken over from a dead holder', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-lock-'));
    const lock = await acquireIndexLock({ dataDir: dir });
    expect(lock).not.toBeNull();
    expect(readFileSync(path.join(dir, INDEX_LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    expect(indexLockHolder(dir)).toBe(process.pid);
    expect(await acquireIndexLock({ dataDir: dir, waitMs: 50 })).toBeNull();
    lock!.release();
    expect(indexLockHolder(dir)).toBeNull();

    // A holder killed with SIGKILL leaves its file; its pid no longer exists.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(path.join(dir, INDEX_LOCK_FILE), `${dead}\n`);
    expect(indexLockHolder(dir)).toBeNull();
    const again = await acquireIndexLock({ dataDir: dir });
    expect(again).not.toBeNull();
    again!.release();
  });

  it('tells onWait once, with the holder pid, when it has to wait, and takes the lock once it is released', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-lock-'));
    const held = await acquireIndexLock({ dataDir: dir });
    const heard: Array<number | null> = [];
    const waiting = acquireIndexLock({ dataDir: dir, waitMs: 10_000, pollMs: 10, onWait: (pid) => heard.push(pid) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual([process.pid]);
    held!.release();
    const lock = await waiting;
    expect(lock).not.toBeNull();
    expect(heard).toEqual([process.pid]);
    lock!.release();

    // A free lock, or no wait allowed: never called.
    const free = await acquireIndexLock({ dataDir: dir, waitMs: 1000, onWait: (pid) => heard.push(pid) });
    expect(await acquireIndexLock({ dataDir: dir, onWait: (pid) => heard.push(pid) })).toBeNull();
    free!.release();
    expect(heard).toEqual([process.pid]);
  });
});

describe('path queue', () => {
  it('keeps entries until removed and merges paths and the full-run mark', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-queue-'));
    expect(readPathQueue(dir)).toMatchObject({ paths: [], full: false, entries: 0 });
    enqueuePaths(dir, ['a.ts', 'b/c.ts']);
    enqueuePaths(dir, ['a.ts', '*']);
    const first = readPathQueue(dir);
    expect(first).toMatchObject({ full: true, entries: 2 });
    expect(first.paths.sort()).toEqual(['a.ts', 'b/c.ts']);
    expect(readPathQueue(dir).entries).toBe(2);
    first.remove();
    expect(pathQueueLength(dir)).toBe(0);
  });
});
