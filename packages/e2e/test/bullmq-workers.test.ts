import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProjectFile } from '@monorag/indexer';
import { createBullmqIndexQueue, localIndexKey, startRedisServer, type TestRedis } from '@monorag/indexer/queue';
import { openSqliteStore } from '@monorag/store';
import { cliCommand, killGroup, REPO_ROOT, runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { writeGeneratedCorpus } from './generated-corpus.js';

const FILES = 1000;

interface WorkerProcess {
  child: ChildProcess;
  /** Paths of the `file job done` log lines so far, with their outcome. */
  done: { path: string; outcome: string }[];
  exited: Promise<number | null>;
}

let redis: TestRedis;
let embedding: FakeEmbeddingHttp;
let root: string;
let dataDir: string;
let paths: string[];
let env: Record<string, string>;
const project = 'bullmq-e2e';
const spawned: ChildProcess[] = [];

function startWorker(): WorkerProcess {
  const { command, args } = cliCommand(['worker', root, '--concurrency', '2']);
  // Its own process group, so a SIGKILL reaches the worker itself and not only the tsx wrapper around it.
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  spawned.push(child);
  const done: WorkerProcess['done'] = [];
  let buffer = '';
  child.stderr?.on('data', (data: Buffer) => {
    buffer += data.toString('utf8');
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; path?: string; outcome?: string };
      if (entry.msg === 'file job done' && entry.path) done.push({ path: entry.path, outcome: entry.outcome ?? '' });
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, done, exited };
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 200));
}

/** Asserts that the index holds exactly the corpus files, each with the hash of its current content. */
async function expectCompleteIndex(): Promise<void> {
  const store = await openSqliteStore({ file: path.join(dataDir, 'index.sqlite') });
  try {
    const files = await store.listFiles();
    expect(files.map((f) => f.path)).toEqual(paths);
    for (const file of files) {
      const read = await readProjectFile(path.join(root, file.path));
      expect(read.kind === 'text' && read.contentHash).toBe(file.contentHash);
    }
    const stats = await store.stats();
    expect(stats.files).toBe(FILES);
    expect(stats.chunks).toBe(files.reduce((sum, f) => sum + f.chunkCount, 0));
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  redis = await startRedisServer();
  embedding = await startFakeEmbeddingHttp();
  root = mkdtempSync(path.join(tmpdir(), 'monorag-bullmq-corpus-'));
  dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-bullmq-data-'));
  mkdirSync(root, { recursive: true });
  paths = writeGeneratedCorpus(root, FILES);
  env = {
    REDIS_URL: redis.url,
    EMBEDDING_URL: embedding.url,
    MONORAG_DATA_DIR: dataDir,
    MONORAG_PROJECT: project,
    MONORAG_LOG_LEVEL: 'info',
    MONORAG_QUEUE_LOCK_SECONDS: '4',
  };
});

afterAll(async () => {
  for (const child of spawned) killGroup(child, 'SIGKILL');
  await redis?.stop();
  await embedding?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('monorag worker processes on a real redis-server (1,000 generated files, fake embedder over HTTP)', () => {
  it('two workers index every file exactly once and stop gracefully on SIGTERM', async () => {
    const started = Date.now();
    const enqueue = await runCli(['jobs', 'enqueue', root, '--json'], env);
    expect(enqueue.code).toBe(0);
    expect(JSON.parse(enqueue.stdout)).toMatchObject({ walked: FILES, unchanged: 0, enqueued: FILES });

    const workers = [startWorker(), startWorker()];
    const queue = createBullmqIndexQueue({ redisUrl: redis.url, project: localIndexKey(project, dataDir) });
    try {
      await until(() => workers.reduce((n, w) => n + w.done.length, 0) >= FILES);
      expect(await queue.drained()).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    } finally {
      await queue.close();
    }
    for (const w of workers) w.child.kill('SIGTERM');
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);

    const done = workers.flatMap((w) => w.done);
    const perPath = new Map<string, number>();
    for (const d of done) perPath.set(d.path, (perPath.get(d.path) ?? 0) + 1);
    expect([...perPath.keys()].sort()).toEqual(paths);
    expect([...perPath.values()].every((n) => n === 1)).toBe(true);
    expect(done.every((d) => d.outcome === 'indexed')).toBe(true);
    // Both processes took work.
    for (const w of workers) expect(w.done.length).toBeGreaterThan(0);
    await expectCompleteIndex();
    // The worker that found the queue drained recorded the index as fresh (no --wait ran): the time,
    // and the commit enqueue saw ('' here: the corpus is not a git repository).
    const store = await openSqliteStore({ file: path.join(dataDir, 'index.sqlite') });
    try {
      expect(Number(await store.getMeta('indexedAt'))).toBeGreaterThanOrEqual(started);
      expect(await store.getMeta('indexedCommit')).toBe('');
    } finally {
      await store.close();
    }

    const jobs = await runCli(['jobs', '--project', root, '--json'], env);
    expect(JSON.parse(jobs.stdout)).toMatchObject({ counts: { waiting: 0, active: 0, delayed: 0, failed: 0 }, jobs: [] });
  });

  it('after one of two workers is killed with SIGKILL mid-run, a third worker helps finish: complete index, no job lost', async () => {
    for (const rel of paths) appendFileSync(path.join(root, rel), '\n// changed\n');
    const enqueue = await runCli(['jobs', 'enqueue', root, '--json'], env);
    expect(JSON.parse(enqueue.stdout)).toMatchObject({ walked: FILES, unchanged: 0, enqueued: FILES });

    const victim = startWorker();
    const survivor = startWorker();
    await until(() => victim.done.length + survivor.done.length >= 150 && victim.done.length > 0);
    killGroup(victim.child, 'SIGKILL');
    expect(await victim.exited).toBeNull();
    const third = startWorker();
    const queue = createBullmqIndexQueue({ redisUrl: redis.url, project: localIndexKey(project, dataDir) });
    try {
      // The victim's active jobs are found stalled once their 4 s locks expire and are run again.
      await until(async () => {
        const c = await queue.counts();
        return c.waiting + c.active + c.delayed === 0 && new Set([...victim.done, ...survivor.done, ...third.done].map((d) => d.path)).size === FILES;
      });
      expect((await queue.counts()).failed).toBe(0);
    } finally {
      await queue.close();
    }
    for (const w of [survivor, third]) w.child.kill('SIGTERM');
    expect(await Promise.all([survivor.exited, third.exited])).toEqual([0, 0]);
    await expectCompleteIndex();
  });
});
