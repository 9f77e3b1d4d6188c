import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBullmqIndexQueue, indexQueueName, localIndexKey, startRedisServer } from '@monorag/indexer/queue';
import { CLI_SHELL_COMMAND, cliCommand, REPO_ROOT, runCli, until } from './cli.js';
import { startGatewayProcess } from './gateway-process.js';
import { git, makeGitRepo, tokenFile } from './git-repo.js';
import { useQueueStack } from './queue-stack.js';

const stack = useQueueStack();
const { spawned, repos, queues } = stack;

interface Freshness {
  files: number;
  indexedCommit: string | null;
  headCommit: string | null;
  pendingChanges: number;
  unqueuedChanges: number;
  queue: { name: string; jobs: number; active: number; failed: number; workers: number; error: string | null } | null;
  indexing: boolean;
  stale: boolean;
  warning: string | null;
}

/** Starts `monorag worker <repo>` in its own process group. */
function startWorker(repo: string, env: Record<string, string>): { child: ChildProcess; exited: Promise<number | null> } {
  const { command, args } = cliCommand(['worker', repo]);
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, MONORAG_LOG_LEVEL: 'warn', ...env }, stdio: 'ignore', detached: true });
  spawned.push(child);
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

async function status(repo: string, env: Record<string, string>): Promise<Freshness> {
  const run = await runCli(['status', '--project', repo, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Freshness;
}

async function gatewaySearch(url: string): Promise<Freshness> {
  const response = await fetch(`${url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'alphaToken', mode: 'lexical' }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { index: Freshness }).index;
}

/**
 * A git repository holding `files`, a fresh project key on the stack's Redis, the CLI environment of
 * queue mode for it, and its queue (closed after the tests).
 */
function queuedProject(files: Record<string, string>) {
  const repo = makeGitRepo(files);
  repos.push(repo);
  const key = `qf-${randomUUID().slice(0, 8)}`;
  const env = { MONORAG_QUEUE: 'bullmq', REDIS_URL: stack.redis.url, MONORAG_PROJECT: key, EMBEDDING_URL: stack.embeddings[0]!.url };
  // With a SQLite index the queue's key holds the data directory (see localIndexKey).
  const project = localIndexKey(key, path.join(repo, '.monorag'));
  const queue = createBullmqIndexQueue({ redisUrl: stack.redis.url, project });
  queues.push(queue);
  return { repo, key, name: indexQueueName(project), env, queue };
}

describe('freshness in queue mode (queue.kind bullmq) counts the file jobs in the queue and who runs them', () => {
  it('committed edits queued by the hooks with no worker running: status, search and the gateway count the jobs and say no worker is connected; an uncommitted edit is said not to be queued', async () => {
    const { repo, name, env, queue } = queuedProject({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken'), 'src/c.ts': tokenFile('gammaToken') });

    // Built by a worker, then the worker stops.
    const worker = startWorker(repo, env);
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    const built = git(repo, 'rev-parse', 'HEAD').trim();
    expect(await status(repo, env)).toMatchObject({
      stale: false, pendingChanges: 0, unqueuedChanges: 0, indexedCommit: built, queue: { name, jobs: 0, active: 0, failed: 0, workers: 0, error: null }, warning: null,
    });

    // Two committed edits: the post-commit hook's run puts their jobs on the queue; no worker takes them.
    const installed = await runCli(['hooks', 'install', repo, '--command', CLI_SHELL_COMMAND], env);
    expect(installed.code, installed.stderr).toBe(0);
    writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('alphaToken2'));
    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('betaToken2'));
    git(repo, 'add', '-A');
    execFileSync('git', ['commit', '-q', '-m', 'edit a and b'], { cwd: repo, env: { ...process.env, ...env } });
    const log = path.join(repo, '.monorag', 'hooks.log');
    await until(() => existsSync(log) && readFileSync(log, 'utf8').includes('for the workers'), "the hook's run");
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const queued = {
      stale: true, pendingChanges: 2, unqueuedChanges: 0, indexing: false, headCommit: head, indexedCommit: built,
      queue: { name, jobs: 2, active: 0, failed: 0, workers: 0, error: null },
      warning:
        `Results may be out of date: HEAD is ${head.slice(0, 12)} but the index reflects ${built.slice(0, 12)}; ` +
        `2 file job(s) queued; no worker is connected to ${name}: start one with \`monorag worker\`.`,
    };
    expect(await status(repo, env)).toEqual(expect.objectContaining(queued));
    const search = await runCli(['search', 'alphaToken', '--lexical', '--json', '--project', repo], env);
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { index: Freshness }).index).toEqual(expect.objectContaining(queued));
    const plain = await runCli(['status', '--project', repo], env);
    expect(plain.stdout).toContain(`\nFresh: no. ${queued.warning}\nQueue: ${name}: 2 file job(s) queued (0 being indexed), 0 failed, 0 worker(s) connected\n`);

    // An uncommitted edit nothing queued (no watcher: the gateway runs with --no-watch) is said to be so, apart from the jobs.
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(path.join(repo, 'src/c.ts'), tokenFile('gammaToken2'));
    const gateway = await startGatewayProcess(repo, env);
    try {
      const unqueued =
        '1 changed file(s) in the work tree are not queued for indexing (the git hooks queue them once committed, the `sync_index` tool or `monorag index` at once)';
      expect(await gatewaySearch(gateway.url)).toEqual(
        expect.objectContaining({
          ...queued,
          pendingChanges: 3,
          unqueuedChanges: 1,
          warning:
            `Results may be out of date: HEAD is ${head.slice(0, 12)} but the index reflects ${built.slice(0, 12)}; ${unqueued}; ` +
            `2 file job(s) queued; no worker is connected to ${name}: start one with \`monorag worker\`.`,
        }),
      );
      // A worker drains the queue and records the commit: only the unqueued edit is left.
      const again = startWorker(repo, env);
      expect(await queue.drained(100)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
      expect(await gatewaySearch(gateway.url)).toEqual(
        expect.objectContaining({
          stale: true, pendingChanges: 1, unqueuedChanges: 1, indexedCommit: head, queue: { name, jobs: 0, active: 0, failed: 0, workers: 0, error: null },
          warning: `Results may be out of date: ${unqueued}.`,
        }),
      );
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  }, 150_000);

  it('a file queued by `monorag index` but not yet indexed counts as a queued job, not as an unqueued change', async () => {
    const { repo, name, env } = queuedProject({ 'src/a.ts': tokenFile('alphaToken') });
    const worker = startWorker(repo, env);
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(path.join(repo, 'src/new.ts'), tokenFile('newToken'));
    expect(await status(repo, env)).toMatchObject({ pendingChanges: 1, unqueuedChanges: 1, queue: { jobs: 0 } });
    const enqueued = await runCli(['jobs', 'enqueue', repo], env);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    expect(await status(repo, env)).toMatchObject({
      pendingChanges: 1, unqueuedChanges: 0, queue: { name, jobs: 1, workers: 0 },
      warning: `Results may be out of date: 1 file job(s) queued; no worker is connected to ${name}: start one with \`monorag worker\`.`,
    });
  }, 90_000);

  it('a binary file new in the work tree is pending until a queued run has looked at it, then fresh: no worker indexes it, and it is not pending for good', async () => {
    const { repo, name, env, queue } = queuedProject({ 'src/a.ts': tokenFile('alphaToken') });
    const worker = startWorker(repo, env);
    try {
      const indexed = await runCli(['index', repo, '--quiet'], env);
      expect(indexed.code, indexed.stderr).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Binary by content, not by name: a run must read it to leave it out (an image by extension is never pending).
      writeFileSync(path.join(repo, 'blob.dat'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2, 3, 0, 0, 0xff, 0xfe]));
      expect(await status(repo, env)).toMatchObject({ stale: true, pendingChanges: 1, unqueuedChanges: 1 });
      const again = await runCli(['index', repo, '--quiet'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(await queue.drained(100)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
      expect(await status(repo, env)).toMatchObject({
        stale: false, pendingChanges: 0, unqueuedChanges: 0, queue: { name, jobs: 0, active: 0, failed: 0, workers: 1, error: null }, warning: null,
      });
      const listed = await runCli(['search', 'alphaToken', '--lexical', '--json', '--project', repo], env);
      expect((JSON.parse(listed.stdout) as { results: { path: string }[] }).results.map((r) => r.path)).toEqual(['src/a.ts']);
    } finally {
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
  }, 120_000);

  it('a running worker follows the index file `jobs enqueue --rebuild` replaced, and removes a file a new ignore rule leaves out', async () => {
    const { repo, env } = queuedProject({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken'), 'src/c.ts': tokenFile('gammaToken') });
    const worker = startWorker(repo, env);
    const paths = async (query: string): Promise<string[]> => {
      const run = await runCli(['search', query, '--lexical', '--json', '--project', repo], env);
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { results: { path: string }[] }).results.map((r) => r.path);
    };
    try {
      let embedded = 0;
      for (const args of [['jobs', 'enqueue', repo, '--wait'], ['jobs', 'enqueue', repo, '--rebuild', '--wait']]) {
        const run = await runCli(args, env);
        expect(run.code, run.stderr).toBe(0);
        // Before the fix the worker wrote the rebuild's jobs into the unlinked file: 0 files, and "fresh".
        expect(await status(repo, env)).toMatchObject({ files: 3, stale: false });
        if (!args.includes('--rebuild')) {
          embedded = stack.embeddings[0]!.texts();
          continue;
        }
        // The rebuild carries the embedding cache over: nothing goes to the model again (it was deleted with the index).
        const carried = /\((\d+) cached embeddings carried over\)/.exec(run.stderr);
        expect(Number(carried?.[1]), run.stderr).toBeGreaterThanOrEqual(3);
        expect(stack.embeddings[0]!.texts()).toBe(embedded);
      }
      expect((await paths('gammaToken'))[0]).toBe('src/c.ts');
      writeFileSync(path.join(repo, '.monoragignore'), 'src/c.ts\n');
      const ignored = await runCli(['jobs', 'enqueue', repo, '--wait'], env);
      expect(ignored.code, ignored.stderr).toBe(0);
      expect((await paths('gammaToken')).sort()).toEqual(['src/a.ts', 'src/b.ts']);
      expect(await status(repo, env)).toMatchObject({ stale: false, pendingChanges: 0 });
    } finally {
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
  }, 150_000);

  it('a Redis that does not answer costs a freshness read a bounded wait and a line, not the answer', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken') });
    repos.push(repo);
    const key = `qf-${randomUUID().slice(0, 8)}`;
    const own = await startRedisServer();
    const env = { MONORAG_QUEUE: 'bullmq', REDIS_URL: own.url, MONORAG_PROJECT: key, EMBEDDING_URL: stack.embeddings[0]!.url };
    const worker = startWorker(repo, env);
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    await own.stop();
    const search = await runCli(['search', 'alphaToken', '--lexical', '--json', '--project', repo], env);
    expect(search.code, search.stderr).toBe(0);
    const { results, index } = JSON.parse(search.stdout) as { results: { path: string }[]; index: Freshness };
    expect(results.map((r) => r.path)).toEqual(['src/a.ts']);
    const name = indexQueueName(localIndexKey(key, path.join(repo, '.monorag')));
    expect(index.queue).toEqual({ name, jobs: 0, active: 0, failed: 0, workers: 0, error: expect.stringMatching(/Redis/) });
    expect(index.warning).toBe(`Results may be out of date: the file-job queue ${name} could not be read (${index.queue!.error}), so queued jobs are not counted.`);
  }, 90_000);
});
