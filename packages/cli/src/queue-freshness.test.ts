import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUIRED_SCANNER_META, SECRET_SCANNER_META } from '@monorag/indexer';
import { SECRET_SCANNER_ID } from '@monorag/secrets';
import { openSqliteStore } from '@monorag/store';
import { ENQUEUED_AT_KEY, ENQUEUED_COMMIT_KEY, ENQUEUED_SCANNER_KEY, recordDrainedQueue, recordEnqueued, scannerWidensPlan } from './queue-freshness.js';

const IDENTITY = { model: 'fake', dim: 8, chunkerVersion: 't' };

describe('recordDrainedQueue', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const openStore = async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-queue-freshness-'));
    dirs.push(dir);
    return openSqliteStore({ file: path.join(dir, 'index.sqlite'), identity: IDENTITY });
  };

  it("records indexedAt and the enqueued commit only once no job waits, runs or is delayed", async () => {
    const store = await openStore();
    await store.setMeta(ENQUEUED_COMMIT_KEY, '85ced476d5a0');
    const counts = { waiting: 0, active: 1, delayed: 0, failed: 0, completed: 7 };
    const queue = { counts: async () => counts };
    expect(await recordDrainedQueue(queue, store, SECRET_SCANNER_ID)).toBeNull();
    expect(await store.getMeta('indexedAt')).toBeUndefined();
    expect(await store.getMeta('indexedCommit')).toBeUndefined();
    counts.active = 0;
    counts.delayed = 1; // a retry waiting out its backoff is still work to do
    expect(await recordDrainedQueue(queue, store, SECRET_SCANNER_ID)).toBeNull();
    counts.delayed = 0;
    counts.failed = 2; // failed jobs stay listed by `monorag jobs`; they do not hold the run open
    const before = Date.now();
    expect(await recordDrainedQueue(queue, store, SECRET_SCANNER_ID)).toEqual({ failed: 2, secretScanner: 'not-enqueued' });
    expect(Number(await store.getMeta('indexedAt'))).toBeGreaterThanOrEqual(before);
    expect(await store.getMeta('indexedCommit')).toBe('85ced476d5a0');
    expect(await store.getMeta(SECRET_SCANNER_META)).toBeUndefined();
    await store.close();
  });

  it("records as indexedAt when the earliest plan not yet drained began, not the drain's time (a file saved while the jobs waited is newer than the index)", async () => {
    const store = await openStore();
    const queue = { counts: async () => ({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 }) };
    await recordEnqueued(store, { commit: 'aa', plannedAt: 1_000 });
    await recordEnqueued(store, { commit: 'bb', plannedAt: 2_000 });
    expect(await store.getMeta(ENQUEUED_AT_KEY)).toBe('1000');
    await recordDrainedQueue(queue, store, SECRET_SCANNER_ID);
    expect(await store.getMeta('indexedAt')).toBe('1000');
    expect(await store.getMeta('indexedCommit')).toBe('bb');
    // The drain closed that plan: the next one starts anew.
    await recordEnqueued(store, { commit: 'cc', plannedAt: 3_000 });
    await recordDrainedQueue(queue, store, SECRET_SCANNER_ID);
    expect(await store.getMeta('indexedAt')).toBe('3000');
    // A drain no plan recorded (a worker's after a retry) takes its own time.
    const before = Date.now();
    await recordDrainedQueue(queue, store, SECRET_SCANNER_ID);
    expect(Number(await store.getMeta('indexedAt'))).toBeGreaterThanOrEqual(before);
    await store.close();
  });

  it('records the enqueued secret scanner once drained, but not while failed jobs remain (the next enqueue then re-scans)', async () => {
    const store = await openStore();
    await store.setMeta(SECRET_SCANNER_META, 'off');
    await recordEnqueued(store, { commit: 'c0ffee', scanner: SECRET_SCANNER_ID });
    expect(await store.getMeta(ENQUEUED_SCANNER_KEY)).toBe(SECRET_SCANNER_ID);
    const counts = { waiting: 0, active: 0, delayed: 0, failed: 1, completed: 0 };
    const queue = { counts: async () => counts };
    expect(await recordDrainedQueue(queue, store, SECRET_SCANNER_ID)).toEqual({ failed: 1, secretScanner: 'failed-jobs' });
    expect(await store.getMeta(SECRET_SCANNER_META)).toBe('off');
    expect(await store.getMeta('indexedCommit')).toBe('c0ffee');
    counts.failed = 0; // `monorag jobs --retry` ran the failed job again, and it succeeded
    expect(await recordDrainedQueue(queue, store, SECRET_SCANNER_ID)).toEqual({ failed: 0, secretScanner: 'recorded' });
    expect(await store.getMeta(SECRET_SCANNER_META)).toBe(SECRET_SCANNER_ID);
    // Already the index's: failed jobs of a later run change nothing about it.
    counts.failed = 3;
    expect(await recordDrainedQueue(queue, store, SECRET_SCANNER_ID)).toEqual({ failed: 3, secretScanner: 'recorded' });
    expect(await store.getMeta(SECRET_SCANNER_META)).toBe(SECRET_SCANNER_ID);
    await store.close();
  });

  it("a worker redacting with another scanner than the enqueued one leaves the index's scanner as it was; a path-limited enqueue records none", async () => {
    const store = await openStore();
    await store.setMeta(SECRET_SCANNER_META, 'off');
    await recordEnqueued(store, { commit: null, scanner: SECRET_SCANNER_ID });
    const queue = { counts: async () => ({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 }) };
    expect(await recordDrainedQueue(queue, store, 'off')).toEqual({ failed: 0, secretScanner: 'scanner-differs' });
    expect(await store.getMeta(SECRET_SCANNER_META)).toBe('off');
    expect(await store.getMeta('indexedCommit')).toBe('');
    await recordEnqueued(store, { commit: 'beef' });
    expect(await store.getMeta(ENQUEUED_SCANNER_KEY)).toBe(SECRET_SCANNER_ID);
    expect(await store.getMeta(ENQUEUED_COMMIT_KEY)).toBe('beef');
    await store.close();
  });
});

describe('scannerWidensPlan', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('widens a path-limited plan to the whole tree while the scanner the index stands on (required, else recorded) differs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-queue-widen-'));
    dirs.push(dir);
    const store = await openSqliteStore({ file: path.join(dir, 'index.sqlite'), identity: IDENTITY });
    try {
      expect(await scannerWidensPlan(store, SECRET_SCANNER_ID)).toBeUndefined();
      await store.setMeta(SECRET_SCANNER_META, 'off');
      expect(await scannerWidensPlan(store, SECRET_SCANNER_ID)).toBe('off');
      expect(await scannerWidensPlan(store, 'off')).toBeUndefined();
      // A whole-tree enqueue for redaction on, not yet drained: the requirement is what workers hold to.
      await store.setMeta(REQUIRED_SCANNER_META, SECRET_SCANNER_ID);
      expect(await scannerWidensPlan(store, SECRET_SCANNER_ID)).toBeUndefined();
      expect(await scannerWidensPlan(store, 'off')).toBe(SECRET_SCANNER_ID);
    } finally {
      await store.close();
    }
  });
});
