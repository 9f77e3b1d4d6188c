import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunker, type Chunker } from '@monorag/chunker';
import { createFakeEmbedder } from '@monorag/embedder-client';
import { SECRET_SCANNER_META, secretScannerOf } from '@monorag/indexer';
import {
  createBullmqIndexQueue, indexFile, planFileJobs, startBullmqIndexWorker, startRedisServer, writeTokenProject,
  type BullmqIndexQueue, type FileJobResult, type TestRedis,
} from '@monorag/indexer/queue';
import { SECRET_SCANNER_ID } from '@monorag/secrets';
import { openSqliteStore, type SqliteStore } from '@monorag/store';
import { recordDrainedQueue, recordEnqueued, requireScanner, type DrainRecord } from './queue-freshness.js';

const MAX_FILE_BYTES = 1 << 20;
let redis: TestRedis;
let chunker: Chunker;

beforeAll(async () => {
  redis = await startRedisServer();
  chunker = await createChunker();
});
afterAll(async () => {
  await redis?.stop();
});

/** A project holding a GitHub token, its SQLite index (outside the project) and its queue on the test's redis-server. */
async function queuedProject(queueOptions: { attempts?: number; backoffMs?: number } = {}) {
  const { root, token } = writeTokenProject();
  const embedder = createFakeEmbedder();
  const info = await embedder.info();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'monorag-rescan-data-')), 'index.sqlite');
  const store = await openSqliteStore({ file, identity: { model: info.model, dim: info.dim, chunkerVersion: chunker.version } });
  const project = `p-${randomUUID()}`;
  const queue = createBullmqIndexQueue({ redisUrl: redis.url, project, ...queueOptions });
  return { root, token, embedder, store, project, queue };
}
type QueuedProject = Awaited<ReturnType<typeof queuedProject>>;

/** What `monorag jobs enqueue` does for a whole-tree plan: plan, require its scanner, enqueue, record what the jobs bring the index to. */
async function enqueue({ root, store, queue }: QueuedProject, redactSecrets: boolean) {
  const plan = await planFileJobs({ root, store, maxFileBytes: MAX_FILE_BYTES, redactSecrets });
  await requireScanner(store, plan.scanner);
  await queue.enqueue(plan.paths);
  await recordEnqueued(store, { commit: null, scanner: plan.scanner });
  return plan;
}

/**
 * What `monorag worker` does until the queue is drained: index each job's file with `indexFile`, and
 * after each job record a drained queue. Returns the jobs' outcomes by path and the drain records.
 */
async function work({ root, store, embedder, project, queue }: QueuedProject, redactSecrets: boolean, failOn?: string) {
  const outcomes: Record<string, FileJobResult['outcome']> = {};
  const drains: DrainRecord[] = [];
  let recording = Promise.resolve();
  const worker = await startBullmqIndexWorker({
    redisUrl: redis.url,
    project,
    processFile: async (data) => {
      if (data.path === failOn) throw new Error('embedder down');
      const result = await indexFile({ root, path: data.path, store, chunker, embedder, maxFileBytes: MAX_FILE_BYTES, redactSecrets });
      outcomes[data.path] = result.outcome;
      return result;
    },
    onJobDone: () => {
      recording = recording.then(async () => {
        const drained = await recordDrainedQueue(queue, store, secretScannerOf(redactSecrets));
        if (drained) drains.push(drained);
      });
    },
  });
  await queue.drained(50);
  await worker.close();
  await recording;
  return { outcomes, drains };
}

const storedText = async (store: SqliteStore, file: string): Promise<string> => (await store.chunksOfFile(file)).map((c) => c.content).join('\n');

const closeAll = async ({ queue, store }: { queue: BullmqIndexQueue; store: SqliteStore }): Promise<void> => {
  await queue.close();
  await store.close();
};

describe('queue mode re-scans unchanged files when redaction is turned on (real redis-server, SQLite, fake embedder)', () => {
  it('indexed with redaction off, then enqueued with it on: the unchanged file is planned, re-chunked with [REDACTED:github], and the scanner recorded', async () => {
    const p = await queuedProject();
    expect(await enqueue(p, false)).toEqual({ paths: ['src/deploy.ts', 'src/plain.ts'], walked: 2, unchanged: 0, rescan: 0, leftOut: 0, scanner: 'off' });
    const first = await work(p, false);
    expect(first.outcomes).toEqual({ 'src/deploy.ts': 'indexed', 'src/plain.ts': 'indexed' });
    // With two jobs at once, both may finish to a drained queue: each records the same.
    expect(first.drains.at(-1)).toEqual({ failed: 0, secretScanner: 'recorded' });
    expect(await storedText(p.store, 'src/deploy.ts')).toContain(p.token);
    expect(await p.store.getMeta(SECRET_SCANNER_META)).toBe('off');

    // Redaction on, no file edited.
    expect(await enqueue(p, true)).toEqual({ paths: ['src/deploy.ts', 'src/plain.ts'], walked: 2, unchanged: 0, rescan: 2, leftOut: 0, scanner: SECRET_SCANNER_ID });
    const { outcomes, drains } = await work(p, true);
    expect(outcomes).toEqual({ 'src/deploy.ts': 'indexed', 'src/plain.ts': 'unchanged' });
    expect(drains.at(-1)).toEqual({ failed: 0, secretScanner: 'recorded' });
    const text = await storedText(p.store, 'src/deploy.ts');
    expect(text).toContain('  return new Client({ token: "[REDACTED:github]" });');
    expect(text).not.toContain(p.token);
    expect(await p.store.searchLexical(p.token, { limit: 10 })).toEqual([]);
    expect((await p.store.getFile('src/deploy.ts'))?.secrets).toEqual({ github: 1 });
    expect(await p.store.getMeta(SECRET_SCANNER_META)).toBe(SECRET_SCANNER_ID);
    // Recorded: the next plan leaves unchanged files alone again.
    expect(await enqueue(p, true)).toEqual({ paths: [], walked: 2, unchanged: 2, rescan: 0, leftOut: 0, scanner: SECRET_SCANNER_ID });
    await closeAll(p);
  });

  it('a worker still redacting the old way fails every job at once instead of keeping the token, and nothing is recorded until a worker with the new setting runs them', async () => {
    // The trial's case: the enqueuer turned redaction on, a worker kept running with it off.
    const p = await queuedProject();
    await enqueue(p, false);
    await work(p, false);
    expect(await p.store.getMeta(SECRET_SCANNER_META)).toBe('off');

    await enqueue(p, true);
    const stale = await work(p, false);
    expect(stale.outcomes).toEqual({});
    expect(stale.drains.at(-1)).toEqual({ failed: 2, secretScanner: 'failed-jobs' });
    expect(await p.queue.counts()).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 2 });
    const [failed] = await p.queue.list(['failed'], 1);
    expect(failed?.failedReason).toContain(`This worker redacts secrets with "off" (index.redactSecrets false), but the last whole-tree \`monorag jobs enqueue\` requires "${SECRET_SCANNER_ID}"`);
    expect(await p.store.getMeta(SECRET_SCANNER_META)).toBe('off');

    // Workers restarted with the enqueuer's setting; the next enqueue re-plans the re-scan and retries the failed jobs.
    expect(await enqueue(p, true)).toMatchObject({ paths: ['src/deploy.ts', 'src/plain.ts'], rescan: 2 });
    const fixed = await work(p, true);
    expect(fixed.outcomes).toEqual({ 'src/deploy.ts': 'indexed', 'src/plain.ts': 'unchanged' });
    expect(fixed.drains.at(-1)).toEqual({ failed: 0, secretScanner: 'recorded' });
    expect(await storedText(p.store, 'src/deploy.ts')).not.toContain(p.token);
    expect(await p.store.getMeta(SECRET_SCANNER_META)).toBe(SECRET_SCANNER_ID);
    await closeAll(p);
  });

  it('a job that failed keeps the old scanner recorded, so the next enqueue re-scans again; once all succeed it is recorded', async () => {
    const p = await queuedProject({ attempts: 1, backoffMs: 10 });
    await enqueue(p, false);
    await work(p, false);
    expect(await p.store.getMeta(SECRET_SCANNER_META)).toBe('off');

    await enqueue(p, true);
    const failing = await work(p, true, 'src/plain.ts');
    expect(failing.outcomes).toEqual({ 'src/deploy.ts': 'indexed' });
    expect(failing.drains.at(-1)).toEqual({ failed: 1, secretScanner: 'failed-jobs' });
    expect(await p.queue.counts()).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 1 });
    expect(await p.store.getMeta(SECRET_SCANNER_META)).toBe('off');

    // The next enqueue plans the re-scan again (and retries the failed job); now every job succeeds.
    expect(await enqueue(p, true)).toMatchObject({ paths: ['src/deploy.ts', 'src/plain.ts'], unchanged: 0, rescan: 2 });
    const healthy = await work(p, true);
    expect(healthy.outcomes).toEqual({ 'src/deploy.ts': 'unchanged', 'src/plain.ts': 'unchanged' });
    expect(healthy.drains.at(-1)).toEqual({ failed: 0, secretScanner: 'recorded' });
    expect(await p.store.getMeta(SECRET_SCANNER_META)).toBe(SECRET_SCANNER_ID);
    expect(await storedText(p.store, 'src/deploy.ts')).not.toContain(p.token);
    await closeAll(p);
  });
});
