import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_SCANNER_META, secretScannerOf } from '@monorag/indexer';
import { createBullmqIndexQueue, indexQueueName, startRedisServer, writeTokenProject, type TestRedis } from '@monorag/indexer/queue';
import { openSqliteStore } from '@monorag/store';
import { CLI_SHELL_COMMAND, killGroup, runCli, startCli, until } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { git, makeGitRepo, tokenFile } from './git-repo.js';
import { findFreePort } from '@monorag/embedder-client';

let embedding: FakeEmbeddingHttp;
let repo: string;
const dataDirs: string[] = [];
const spawned: ChildProcess[] = [];


function envFor(redisUrl: string): Record<string, string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-redis-data-'));
  dataDirs.push(dataDir);
  return { MONORAG_QUEUE: 'bullmq', REDIS_URL: redisUrl, EMBEDDING_URL: embedding.url, MONORAG_DATA_DIR: dataDir, MONORAG_LOG_LEVEL: 'warn' };
}

/**
 * The project key the CLI derives for `project` (the directory's name and a hash of its git identity),
 * read from `monorag jobs --json`: the queue is `monorag-index-<key>`.
 */
async function projectKeyOf(project: string, env: Record<string, string>): Promise<string> {
  const run = await runCli(['jobs', '--project', project, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  const name = (JSON.parse(run.stdout) as { queue: string }).queue;
  expect(name).toMatch(new RegExp(`^monorag-index-${path.basename(project)}-[0-9a-f]{8}$`));
  return name.slice('monorag-index-'.length);
}

/**
 * Starts a worker for `project`, waits for the `monorag index` run `index` (waiting for the workers) to
 * exit 0, stops the worker, and returns the paths the project's SQLite index then holds, sorted.
 */
async function drainWithWorker(project: string, env: Record<string, string>, index: ReturnType<typeof startCli>): Promise<string[]> {
  const worker = startCli(['worker', project], env, spawned);
  expect(await index.exited).toBe(0);
  worker.child.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
  const store = await openSqliteStore({ file: path.join(env.MONORAG_DATA_DIR!, 'index.sqlite') });
  try {
    return (await store.listFiles()).map((f) => f.path).sort();
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  embedding = await startFakeEmbeddingHttp();
  repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
});

afterAll(async () => {
  for (const child of spawned) killGroup(child, 'SIGKILL');
  await embedding?.stop();
  for (const dir of [repo, ...dataDirs]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the BullMQ commands and Redis (MONORAG_QUEUE=bullmq)', () => {
  it('an unreachable Redis: enqueue, jobs, index and worker fail after the connect timeout with one line naming REDIS_URL, exit 1', async () => {
    const port = await findFreePort();
    const url = `redis://127.0.0.1:${port}`;
    const expected =
      `monorag: Cannot connect to Redis at 127.0.0.1:${port} (REDIS_URL=${url}): no answer within 5 s (connect ECONNREFUSED 127.0.0.1:${port}). ` +
      'Start Redis there, or set REDIS_URL (queue.redisUrl in monorag.json) to a reachable redis:// or rediss:// URL.\n';
    const runs = await Promise.all([
      runCli(['jobs', 'enqueue', repo], envFor(url)),
      runCli(['jobs', '--project', repo], envFor(url)),
      runCli(['index', repo], envFor(url)),
      runCli(['worker', repo], envFor(url)),
    ]);
    for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: expected });
  }, 60_000);

  it('an unreachable Redis: `monorag worker` fails with that line before it creates the data directory, calls the embedder or opens the store', async () => {
    const port = await findFreePort();
    const url = `redis://127.0.0.1:${port}`;
    const parent = mkdtempSync(path.join(tmpdir(), 'monorag-redis-data-'));
    dataDirs.push(parent);
    const dataDir = path.join(parent, 'never-created');
    // No embedding server answers there either: touching the embedder would end in EMBEDDER_UNAVAILABLE instead.
    const deadEmbedder = `http://127.0.0.1:${await findFreePort()}`;
    const run = await runCli(['worker', repo], { ...envFor(url), MONORAG_DATA_DIR: dataDir, EMBEDDING_URL: deadEmbedder });
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr:
        `monorag: Cannot connect to Redis at 127.0.0.1:${port} (REDIS_URL=${url}): no answer within 5 s (connect ECONNREFUSED 127.0.0.1:${port}). ` +
        'Start Redis there, or set REDIS_URL (queue.redisUrl in monorag.json) to a reachable redis:// or rediss:// URL.\n',
    });
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('an unknown Redis host: one line with the resolver error, exit 1', async () => {
    const run = await runCli(['jobs', '--project', repo], envFor('redis://no-such-host.invalid:6379'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^monorag: Cannot connect to Redis at no-such-host\.invalid:6379 \(REDIS_URL=redis:\/\/no-such-host\.invalid:6379\): no answer within 5 s \(getaddrinfo (ENOTFOUND|EAI_AGAIN) no-such-host\.invalid\)\. Start Redis there/,
    );
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  }, 60_000);

  it('a worker stopped with SIGTERM while Redis is down exits within a few seconds, saying why on stderr', async () => {
    const own = await startRedisServer();
    const worker = startCli(['worker', repo], envFor(own.url), spawned);
    await until(() => worker.stderr().includes('Ctrl-C stops after the active jobs'), 'the worker to start', 30_000);
    await own.stop();
    await until(() => worker.stderr().includes('Redis connection lost'), 'the lost-connection warning', 10_000);
    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    const code = await Promise.race([worker.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000))]);
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(8_000);
    expect(worker.stderr()).toContain(`monorag worker: Redis at 127.0.0.1:${own.port} is unreachable; stopped without waiting for it`);
  }, 60_000);

  describe('with a real redis-server', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('`monorag index` says it waits for workers, warns when none is connected, and finishes once one runs', async () => {
      const env = envFor(redis.url);
      const index = startCli(['index', repo], env, spawned);
      await until(() => index.stderr().includes('no worker is connected'), 'the no-worker warning', 30_000);
      const queue = `monorag-index-${await projectKeyOf(repo, env)}`;
      expect(index.stderr()).toBe(
        `monorag: 2 file jobs enqueued on ${queue}; waiting for \`monorag worker\` processes to index the 2 queued (Ctrl-C stops waiting; the jobs stay queued).\n` +
          `monorag: warning: no worker is connected to ${queue}; start one with \`monorag worker ${repo}\` (same REDIS_URL and store settings), here or on another machine. Still waiting.\n`,
      );
      const worker = startCli(['worker', repo], env, spawned);
      expect(await index.exited).toBe(0);
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }, 90_000);

    it('`monorag index --paths` in bullmq mode enqueues those paths only, not the whole tree', async () => {
      const project = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
      dataDirs.push(project);
      const env = envFor(redis.url);
      const index = startCli(['index', project, '--paths', 'src/a.ts'], env, spawned);
      await until(() => index.stderr().includes(' enqueued on '), 'the enqueue line', 30_000);
      expect(index.stderr().split('\n')[0]).toContain('monorag: 1 file job enqueued on');
      const queue = createBullmqIndexQueue({ redisUrl: redis.url, project: await projectKeyOf(project, env) });
      try {
        expect((await queue.list(['waiting'])).map((j) => j.path)).toEqual(['src/a.ts']);
      } finally {
        await queue.close();
      }
      expect(await drainWithWorker(project, env, index)).toEqual(['src/a.ts']);
    }, 90_000);

    it('`monorag index --paths` in bullmq mode warns about a path that names nothing, as an in-process run does, and enqueues nothing', async () => {
      const project = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken') });
      dataDirs.push(project);
      const env = envFor(redis.url);
      const run = await runCli(['index', project, '--paths', 'src/nope.ts'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.split('\n')[0]).toBe(
        `monorag: warning: --paths src/nope.ts names no file or directory of ${project} and nothing in its index; check the spelling (paths are relative to the project root).`,
      );
      expect(run.stdout + run.stderr).toContain('0 file jobs enqueued');
    }, 60_000);

    it('`monorag index` in bullmq mode notices a Redis restart that lost its jobs, enqueues them again and waits for them (it said drained, and nothing was indexed)', async () => {
      const project = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
      dataDirs.push(project);
      const own = await startRedisServer();
      const env = envFor(own.url);
      let restarted: TestRedis | undefined;
      try {
        const index = startCli(['index', project], env, spawned);
        await until(() => index.stderr().includes('no worker is connected'), 'the no-worker warning', 30_000);
        // A restart without persistence: the two queued jobs are gone.
        await own.stop();
        restarted = await startRedisServer({ port: own.port });
        await until(() => index.stderr().includes('enqueued them again'), 'the lost-jobs line', 30_000);
        expect(index.stderr()).toContain(
          'monorag: Redis restarted while this run waited (its run_id changed) and lost 2 file job(s) the workers had not done; enqueued them again.\n',
        );
        expect(await drainWithWorker(project, env, index)).toEqual(['src/a.ts', 'src/b.ts']);
      } finally {
        await restarted?.stop();
        await own.stop();
      }
    }, 120_000);

    it('a commit with the hooks installed puts the paths it changed on the queue, consumes the hook queue files, and a worker indexes them', async () => {
      const project = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
      dataDirs.push(project);
      const env = envFor(redis.url);
      const dataDir = env.MONORAG_DATA_DIR!;
      const installed = await runCli(['hooks', 'install', project, '--command', CLI_SHELL_COMMAND], env);
      expect(installed.code, installed.stderr).toBe(0);
      writeFileSync(path.join(project, 'src/a.ts'), tokenFile('alphaToken2'));
      writeFileSync(path.join(project, 'src/c.ts'), tokenFile('gammaToken'));
      git(project, 'add', '-A');
      execFileSync('git', ['commit', '-q', '-m', 'change a, add c'], { cwd: project, env: { ...process.env, ...env } });
      const log = path.join(dataDir, 'hooks.log');
      const logText = (): string => (existsSync(log) ? readFileSync(log, 'utf8') : '');
      await until(() => logText().includes('for the workers'), () => `the hook's line in hooks.log (so far: ${logText()})`, 60_000);
      const key = await projectKeyOf(project, env);
      const name = indexQueueName(key);
      expect(logText()).toMatch(new RegExp(`^\\S+Z post-commit: queued 2 path\\(s\\); put 2 file job\\(s\\) on ${name} for the workers in \\d+ ms\n$`));
      expect(readdirSync(path.join(dataDir, 'queue')).filter((n) => n.endsWith('.paths'))).toEqual([]);
      const queue = createBullmqIndexQueue({ redisUrl: redis.url, project: key });
      try {
        // The commit's paths only: src/b.ts, unchanged by it, gets no job although the index is empty.
        expect((await queue.list(['waiting'])).map((j) => j.path).sort()).toEqual(['src/a.ts', 'src/c.ts']);
        const worker = startCli(['worker', project], env, spawned);
        expect(await queue.drained()).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
        worker.child.kill('SIGTERM');
        expect(await worker.exited).toBe(0);
      } finally {
        await queue.close();
      }
      const store = await openSqliteStore({ file: path.join(dataDir, 'index.sqlite') });
      try {
        expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/a.ts', 'src/c.ts']);
      } finally {
        await store.close();
      }
    }, 120_000);

    it('turning index.redactSecrets on: the next `monorag index` re-scans the unchanged files, a worker redacts the token, the scanner is recorded; turning it off, a hook-style `index --paths` plans the whole tree', async () => {
      const { root, token } = writeTokenProject();
      dataDirs.push(root);
      const on = envFor(redis.url);
      const off = { ...on, MONORAG_REDACT_SECRETS: 'false' };
      const queue = createBullmqIndexQueue({ redisUrl: redis.url, project: await projectKeyOf(root, on) });
      /**
       * `monorag index --json` with a worker of the same settings; returns its report. The worker starts once
       * the jobs are queued: the enqueue has then required its setting of every worker, and a worker whose
       * setting the index does not stand on refuses to start.
       */
      const indexWithWorker = async (env: Record<string, string>, ...flags: string[]): Promise<unknown> => {
        const running = runCli(['index', root, '--json', ...flags], env);
        while ((await queue.counts()).waiting === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        const worker = startCli(['worker', root], env, spawned);
        const run = await running;
        worker.child.kill('SIGTERM');
        expect(await worker.exited).toBe(0);
        expect(run.code, run.stderr).toBe(0);
        return JSON.parse(run.stdout);
      };
      const stored = async (): Promise<{ text: string; scanner: string | undefined }> => {
        const store = await openSqliteStore({ file: path.join(on.MONORAG_DATA_DIR!, 'index.sqlite') });
        try {
          const chunks = await store.chunksOfFile('src/deploy.ts');
          return { text: chunks.map((c) => c.content).join('\n'), scanner: await store.getMeta(SECRET_SCANNER_META) };
        } finally {
          await store.close();
        }
      };
      expect(await indexWithWorker(off)).toMatchObject({ walked: 2, unchanged: 0, rescan: 0, enqueued: 2, after: { failed: 0 }, secretScanner: 'recorded' });
      expect(await stored()).toMatchObject({ scanner: 'off' });
      expect((await stored()).text).toContain(token);
      expect(await indexWithWorker(on)).toMatchObject({ walked: 2, unchanged: 0, rescan: 2, enqueued: 2, after: { failed: 0 }, secretScanner: 'recorded' });
      const after = await stored();
      expect(after.text).toContain('  return new Client({ token: "[REDACTED:github]" });');
      expect(after.text).not.toContain(token);
      expect(after.scanner).toBe(secretScannerOf(true));
      // Paths only (as a git hook's run), after the setting changed back: a plan of src/plain.ts alone
      // would fail on every worker with the new setting and leave deploy.ts redacted the old way.
      expect(await indexWithWorker(off, '--paths', 'src/plain.ts')).toMatchObject({
        walked: 2, rescan: 2, enqueued: 2, widened: { scanner: 'off', standing: secretScannerOf(true) }, after: { failed: 0 }, secretScanner: 'recorded',
      });
      expect(await stored()).toMatchObject({ scanner: 'off' });
      expect((await stored()).text).toContain(token);
      // Once the index stands on the new setting, paths are planned alone again (nothing to do: no worker needed).
      const again = await runCli(['index', root, '--json', '--paths', 'src/plain.ts'], off);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ walked: 1, unchanged: 1, rescan: 0, enqueued: 0 });
      expect(JSON.parse(again.stdout)).not.toHaveProperty('widened');
      await queue.close();
    }, 150_000);
  });
});
