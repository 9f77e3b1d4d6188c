import { mkdtempSync, readFileSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, isMonoragError } from '@monorag/shared';
import { acquireStartLock } from './start-lock.js';

function lockFile(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'monorag-lock-')), 'embedder.lock');
}

describe('acquireStartLock', () => {
  it('serialises two holders: the second waits for the first to release', async () => {
    const file = lockFile();
    const order: string[] = [];
    const release1 = await acquireStartLock({ file, staleMs: 60_000, waitMs: 5000, pollMs: 10 });
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    const second = acquireStartLock({ file, staleMs: 60_000, waitMs: 5000, pollMs: 10 }).then((release) => {
      order.push('second acquired');
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push('first releases');
    await release1();
    const release2 = await second;
    expect(order).toEqual(['first releases', 'second acquired']);
    await release2();
    expect(existsSync(file)).toBe(false);
  });

  it('takes over a lock whose holder process is dead', async () => {
    const file = lockFile();
    writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 12345, token: 'dead' }));
    const release = await acquireStartLock({ file, staleMs: 60_000, waitMs: 1000, pollMs: 10 });
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    await release();
  });

  it('takes over a lock older than staleMs even if its holder lives', async () => {
    const file = lockFile();
    writeFileSync(file, JSON.stringify({ pid: process.ppid, token: 'old' }));
    const old = new Date(Date.now() - 10_000);
    utimesSync(file, old, old);
    const release = await acquireStartLock({ file, staleMs: 5000, waitMs: 1000, pollMs: 10 });
    expect(JSON.parse(readFileSync(file, 'utf8')).token).not.toBe('old');
    await release();
  });

  it('gives up after waitMs with an error naming the lock file and holder', async () => {
    const file = lockFile();
    writeFileSync(file, JSON.stringify({ pid: process.ppid, token: 'live' }));
    const error = await acquireStartLock({ file, staleMs: 60_000, waitMs: 100, pollMs: 10 }).catch((e: unknown) => e);
    expect(isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE)).toBe(true);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(`pid ${process.ppid}`);
  });

  it('does not remove a lock it no longer holds', async () => {
    const file = lockFile();
    const release = await acquireStartLock({ file, staleMs: 60_000, waitMs: 1000 });
    writeFileSync(file, JSON.stringify({ pid: process.pid, token: 'someone-else' }));
    await release();
    expect(JSON.parse(readFileSync(file, 'utf8')).token).toBe('someone-else');
  });
});
