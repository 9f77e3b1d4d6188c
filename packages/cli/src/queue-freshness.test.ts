import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '@monorag/store';
import { ENQUEUED_COMMIT_KEY, recordDrainedQueue } from './queue-freshness.js';

const IDENTITY = { model: 'fake', dim: 8, chunkerVersion: 't' };

describe('recordDrainedQueue', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("records indexedAt and the enqueued commit only once no job waits, runs or is delayed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-queue-freshness-'));
    dirs.push(dir);
    const store = await openSqliteStore({ file: path.join(dir, 'index.sqlite'), identity: IDENTITY });
    await store.setMeta(ENQUEUED_COMMIT_KEY, '85ced476d5a0');
    const counts = { waiting: 0, active: 1, delayed: 0, failed: 0, completed: 7 };
    const queue = { counts: async () => counts };
    expect(await recordDrainedQueue(queue, store)).toBe(false);
    expect(await store.getMeta('indexedAt')).toBeUndefined();
    expect(await store.getMeta('indexedCommit')).toBeUndefined();
    counts.active = 0;
    counts.delayed = 1; // a retry waiting out its backoff is still work to do
    expect(await recordDrainedQueue(queue, store)).toBe(false);
    counts.delayed = 0;
    counts.failed = 2; // failed jobs stay listed by `monorag jobs`; they do not hold the run open
    const before = Date.now();
    expect(await recordDrainedQueue(queue, store)).toBe(true);
    expect(Number(await store.getMeta('indexedAt'))).toBeGreaterThanOrEqual(before);
    expect(await store.getMeta('indexedCommit')).toBe('85ced476d5a0');
    await store.close();
  });
});
