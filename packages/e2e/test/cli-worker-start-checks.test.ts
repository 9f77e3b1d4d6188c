import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretScannerOf } from '@monorag/indexer';
import { startRedisServer, type TestRedis } from '@monorag/indexer/queue';
import { cliCommand, killGroup, REPO_ROOT, runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo, tokenFile } from './git-repo.js';

let redis: TestRedis;
let embedding: FakeEmbeddingHttp;
const cleanup: string[] = [];
const spawned: ChildProcess[] = [];

beforeAll(async () => {
  [redis, embedding] = await Promise.all([startRedisServer({ args: ['--databases', '4'] }), startFakeEmbeddingHttp()]);
});
afterAll(async () => {
  for (const child of spawned) killGroup(child, 'SIGKILL');
  await Promise.all([redis?.stop(), embedding?.stop()]);
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** A git repository with two small files, removed after the tests. */
function repo(): string {
  const root = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
  cleanup.push(root);
  return root;
}

/** A data directory outside every project, removed after the tests. */
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'monorag-worker-checks-data-'));
  cleanup.push(dir);
  return dir;
}

/** Starts `monorag worker <project>` in its own process group (killed after the tests); collects its stderr. */
function startWorker(project: string, env: Record<string, string>): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const { command, args } = cliCommand(['worker', project]);
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, MONORAG_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  spawned.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return { child, stderr: () => stderr, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** A worker that must refuse to start: its exit code and stderr, or `still running` after 30 s. */
async function refusedWorker(project: string, env: Record<string, string>): Promise<{ code: number | null | string; stderr: string }> {
  const worker = startWorker(project, env);
  const code = await Promise.race([worker.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running after 30 s'), 30_000))]);
  return { code, stderr: worker.stderr() };
}

/**
 * Stops a worker started by {@link startWorker} with SIGTERM once it has said it runs (its signal handlers
 * are installed by then; BullMQ may hand it jobs a moment earlier); resolves its exit code.
 */
async function stopWorker(worker: ReturnType<typeof startWorker>): Promise<number | null> {
  const deadline = Date.now() + 30_000;
  while (!worker.stderr().includes('Ctrl-C stops after the active jobs') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  killGroup(worker.child, 'SIGTERM');
  return worker.exited;
}

/** `monorag jobs --json`'s counts. */
async function counts(project: string, env: Record<string, string>): Promise<Record<string, number>> {
  const run = await runCli(['jobs', '--project', project, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { counts: Record<string, number> }).counts;
}

describe('a REDIS_URL naming a database the server does not have (real redis-server with 4 databases)', () => {
  it('`monorag jobs`, `jobs enqueue` and `worker` exit 1 with one line naming REDIS_URL, the database and the databases there are; the worker creates nothing', async () => {
    const project = repo();
    const url = `${redis.url}/99`;
    const data = path.join(dataDir(), 'never-created');
    const env = { MONORAG_QUEUE: 'bullmq', REDIS_URL: url, EMBEDDING_URL: embedding.url, MONORAG_DATA_DIR: data };
    const expected =
      `monorag: Cannot use Redis at 127.0.0.1:${redis.port} (REDIS_URL=${url}): it has no database 99 (ERR DB index is out of range); ` +
      'it has databases 0..3 (its `databases` setting). Put one of those at the end of REDIS_URL (redis://host:port/N; without /N it is 0), ' +
      "or raise `databases` in the server's configuration.\n";
    const [jobs, enqueue, worker] = await Promise.all([runCli(['jobs', '--project', project], env), runCli(['jobs', 'enqueue', project], env), refusedWorker(project, env)]);
    for (const run of [jobs, enqueue]) expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 1, stdout: '', stderr: expected });
    expect(worker).toEqual({ code: 1, stderr: expected });
    expect(existsSync(data)).toBe(false);
  }, 60_000);
});

describe('a worker whose index.redactSecrets differs from the index\'s (real redis-server, fake embedder)', () => {
  it('does not start (exit 2, one line naming the setting, both values and the fix) and takes no job; after a whole-tree enqueue with its setting it starts and indexes', async () => {
    const project = repo();
    const on = { MONORAG_QUEUE: 'bullmq', REDIS_URL: redis.url, EMBEDDING_URL: embedding.url, MONORAG_DATA_DIR: dataDir() };
    const off = { ...on, MONORAG_REDACT_SECRETS: 'false' };
    const enqueued = await runCli(['jobs', 'enqueue', project, '--json'], on);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    expect(JSON.parse(enqueued.stdout)).toMatchObject({ enqueued: 2 });

    // The trial: a worker with redaction off beside the enqueuer's default.
    expect(await refusedWorker(project, off)).toEqual({
      code: 2,
      stderr:
        `monorag: The index of ${project} requires of every worker (set by the last whole-tree \`monorag jobs enqueue\` or \`monorag index\`) ` +
        `the secret scanner "${secretScannerOf(true)}" (index.redactSecrets true), but this worker redacts with "off" (index.redactSecrets false): ` +
        'it would fail every job it takes, so it does not start. ' +
        'Start this worker with index.redactSecrets true (MONORAG_REDACT_SECRETS=true, or "index": {"redactSecrets": true} in monorag.json), as the enqueuer has it. ' +
        `To change the setting for the whole index instead, run a whole-tree \`monorag jobs enqueue ${project}\` (or \`monorag index ${project}\`) with index.redactSecrets false first: ` +
        'it re-scans every file and requires the new setting of every worker; then start the workers with it.\n',
    });
    expect(await counts(project, on)).toMatchObject({ waiting: 2, active: 0, failed: 0 });

    // Changing the setting the documented way: enqueue with it first, then the workers with it start.
    const changed = await runCli(['jobs', 'enqueue', project, '--json'], off);
    expect(changed.code, changed.stderr).toBe(0);
    const worker = startWorker(project, off);
    const drained = await runCli(['jobs', 'enqueue', project, '--wait', '--json'], off);
    expect(drained.code, drained.stderr).toBe(0);
    expect(JSON.parse(drained.stdout)).toMatchObject({ after: { waiting: 0, active: 0, failed: 0 }, secretScanner: 'recorded' });
    expect(await stopWorker(worker)).toBe(0);
    // Now a worker with the old setting is the one refused.
    const old = await refusedWorker(project, on);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('the secret scanner "off" (index.redactSecrets false), but this worker redacts with');
  }, 120_000);
});

describe('`monorag worker` without the BullMQ queue configured', () => {
  it('with the default queue: exit 2, saying that workers serve the BullMQ queue (queue.kind "bullmq", MONORAG_QUEUE, REDIS_URL) and that the default indexes in-process', async () => {
    const project = repo();
    const run = await refusedWorker(project, { MONORAG_QUEUE: '', REDIS_URL: '', EMBEDDING_URL: embedding.url });
    expect(run).toEqual({
      code: 2,
      stderr:
        'monorag: `monorag worker` takes file jobs from the BullMQ queue of the team stack, which needs Redis: set queue.kind "bullmq" and a Redis URL ' +
        '(MONORAG_QUEUE=bullmq and REDIS_URL=redis://host:6379, or "queue": {"kind": "bullmq", "redisUrl": ...} in monorag.json) here and for whoever enqueues. ' +
        `${project} uses the default queue (queue.kind "memory"), which indexes in-process without workers: ` +
        `run \`monorag index ${project}\` instead (or \`monorag watch ${project}\` to keep the index up to date).\n`,
    });
    expect(existsSync(path.join(project, '.monorag'))).toBe(false);
  }, 60_000);

  it('with queue.kind "bullmq" but no REDIS_URL: the queue\'s own line asks for REDIS_URL', async () => {
    const project = repo();
    const run = await refusedWorker(project, { MONORAG_QUEUE: 'bullmq', REDIS_URL: '', EMBEDDING_URL: embedding.url });
    expect(run).toEqual({ code: 2, stderr: 'monorag: The BullMQ queue needs Redis: set REDIS_URL (or queue.redisUrl in monorag.json).\n' });
  }, 60_000);
});

describe('a command on a subdirectory of a project (monorag.json and .monorag/ at the root)', () => {
  it('`monorag worker <root>/lib` refuses naming the root, with or without the queue in the environment, and creates no lib/.monorag; `index` and `jobs enqueue` too; on the root it starts', async () => {
    const root = makeGitRepo({ 'lib/a.ts': tokenFile('alphaToken'), 'README.md': '# r\n' });
    cleanup.push(root);
    writeFileSync(path.join(root, 'monorag.json'), `${JSON.stringify({ queue: { kind: 'bullmq', redisUrl: redis.url } })}\n`);
    const env = { EMBEDDING_URL: embedding.url, MONORAG_QUEUE: '', REDIS_URL: '' };
    const enqueued = await runCli(['jobs', 'enqueue', root, '--json'], env);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const lib = path.join(root, 'lib');
    const expected = (instead: string) =>
      `monorag: [path]: ${lib} lies inside the project ${root} (its monorag.json and its index ${path.join(root, '.monorag', 'index.sqlite')}): ` +
      `${instead}; one index, queue and set of workers serve the whole project, and a search's --path lib keeps to this directory. ` +
      `Nothing was created in ${lib}. To index ${lib} as a project of its own, give it a monorag.json (\`{}\` will do).\n`;
    // Without the environment the subdirectory does not see the root's monorag.json; with it, it would start on a queue of its own.
    for (const workerEnv of [env, { ...env, MONORAG_QUEUE: 'bullmq', REDIS_URL: redis.url }]) {
      expect(await refusedWorker(lib, workerEnv)).toEqual({ code: 2, stderr: expected(`run \`monorag worker ${root}\` instead`) });
    }
    const generic = expected(`run the command on that root instead (give ${root} as [path])`);
    const index = await runCli(['index', lib], { ...env, MONORAG_QUEUE: 'bullmq', REDIS_URL: redis.url });
    expect({ code: index.code, stderr: index.stderr }).toEqual({ code: 2, stderr: generic });
    const enqueue = await runCli(['jobs', 'enqueue', lib], { ...env, MONORAG_QUEUE: 'bullmq', REDIS_URL: redis.url });
    expect({ code: enqueue.code, stderr: enqueue.stderr }).toEqual({ code: 2, stderr: generic });
    expect(existsSync(path.join(lib, '.monorag'))).toBe(false);

    // The suggestion works: on the root the worker starts and indexes the queued files.
    const worker = startWorker(root, env);
    const drained = await runCli(['jobs', 'enqueue', root, '--wait', '--json'], env);
    expect(drained.code, drained.stderr).toBe(0);
    expect(JSON.parse(drained.stdout)).toMatchObject({ after: { waiting: 0, active: 0, failed: 0 } });
    expect(await stopWorker(worker)).toBe(0);
  }, 120_000);
});

describe('stopping a worker', () => {
  it('takes a SIGTERM heard twice (a group-wide kill, then tsx relaying it) as one graceful stop: exit 0, not a forced stop or 143', async () => {
    const project = repo();
    const worker = startWorker(project, { MONORAG_QUEUE: 'bullmq', REDIS_URL: redis.url, EMBEDDING_URL: embedding.url, MONORAG_DATA_DIR: dataDir() });
    const deadline = Date.now() + 30_000;
    while (!worker.stderr().includes('Ctrl-C stops after the active jobs') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    // The whole group, twice moments apart: one request heard twice, as when tsx relays a group's signal the
    // worker has not answered within 30 ms (a loaded machine), which killed it (exit 143) once its listeners were gone.
    killGroup(worker.child, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 10));
    killGroup(worker.child, 'SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.stderr().match(/stopping after the active jobs/g)).toHaveLength(1);
    expect(worker.stderr()).not.toContain('forced stop');
  }, 60_000);
});
