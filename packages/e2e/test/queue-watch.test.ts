import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { findFreePort } from '@monorag/embedder-client';
import { createBullmqIndexQueue, indexQueueName, localIndexKey, startRedisServer, type BullmqIndexQueue, type TestRedis } from '@monorag/indexer/queue';
import { openSqliteStore } from '@monorag/store';
import { CLI_SHELL_COMMAND, killGroup, runCli, startCli, until } from './cli.js';
import { git, makeGitRepo, tokenFile } from './git-repo.js';
import { useQueueStack } from './queue-stack.js';

/** embeddings[0]: the watching process's embedder (in queue mode asked for the model's identity only, never to embed); [1]: the workers' (same model). */
const stack = useQueueStack(2);
const { spawned, repos, queues } = stack;

/** Watches for `<dataDir>/index.lock` every 5 ms; `seen()` says whether it ever existed. */
function lockWatch(dataDir: string): { seen(): boolean; stop(): void } {
  let seen = false;
  const timer = setInterval(() => {
    if (existsSync(path.join(dataDir, 'index.lock'))) seen = true;
  }, 5);
  return { seen: () => seen, stop: () => clearInterval(timer) };
}

/** A git project in queue mode (env, its own project key and queue), with the queue open for inspection. */
function queueProject(files: Record<string, string>) {
  const repo = makeGitRepo(files);
  repos.push(repo);
  const key = `qw-${randomUUID().slice(0, 8)}`;
  const project = localIndexKey(key, path.join(repo, '.monorag'));
  const queue = createBullmqIndexQueue({ redisUrl: stack.redis.url, project });
  queues.push(queue);
  const env = { MONORAG_QUEUE: 'bullmq', REDIS_URL: stack.redis.url, MONORAG_PROJECT: key, EMBEDDING_URL: stack.embeddings[0]!.url };
  return { repo, dataDir: path.join(repo, '.monorag'), name: indexQueueName(project), queue, env, workerEnv: { ...env, EMBEDDING_URL: stack.embeddings[1]!.url } };
}

/** Paths of the jobs waiting in the queue, sorted. */
async function waiting(queue: BullmqIndexQueue): Promise<string[]> {
  return (await queue.list(['waiting'])).map((j) => j.path).sort();
}

/** The paths in the project's SQLite index (read beside the running process: WAL allows it). */
async function indexedPaths(dataDir: string): Promise<string[]> {
  if (!existsSync(path.join(dataDir, 'index.sqlite'))) return [];
  const store = await openSqliteStore({ file: path.join(dataDir, 'index.sqlite') });
  try {
    return (await store.listFiles()).map((f) => f.path).sort();
  } finally {
    await store.close();
  }
}

/** How many times `needle` occurs in `text`. */
function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe('watching in queue mode (queue.kind bullmq): the watcher enqueues file jobs for the workers, it never indexes in process', () => {
  it('`monorag watch` enqueues the tree at start and each edit, embeds nothing and takes no index lock; warns once that no worker is connected; a worker then indexes', async () => {
    const { repo, dataDir, name, queue, env, workerEnv } = queueProject({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
    const lock = lockWatch(dataDir);
    const watch = startCli(['watch', repo], env, spawned);
    try {
      await until(() => watch.stdout().includes('full update:'), 'the start-up run line');
      expect(watch.stdout()).toMatch(new RegExp(`(^|\\n)\\S+Z full update: 2 file job\\(s\\) enqueued for the workers on queue ${name} \\(2 walked, 0 unchanged\\), \\d+ ms\\n`));
      await until(() => watch.stdout().includes('Watching '), 'the Watching line');
      expect(watch.stdout()).toContain(`Watching ${repo} (native, 4 directories); changes go to the queue ${name} for \`monorag worker\`s. Ctrl-C stops.\n`);
      const warning =
        `monorag: warning: no worker is connected to ${name}; start one with \`monorag worker ${repo}\` (same REDIS_URL and store settings), ` +
        'here or on another machine. The file jobs stay queued until one runs.\n';
      expect(watch.stderr()).toBe(warning);
      expect(await waiting(queue)).toEqual(['src/a.ts', 'src/b.ts']);

      writeFileSync(path.join(repo, 'src/c.ts'), tokenFile('gammaToken'));
      await until(() => watch.stdout().includes('paths update:'), 'the run line of the new file');
      expect(watch.stdout()).toMatch(new RegExp(`\\n\\S+Z paths update: 1 file job\\(s\\) enqueued for the workers on queue ${name} \\(1 walked, 0 unchanged\\), \\d+ ms\\n`));
      expect(await waiting(queue)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
      // Warned once, not on every run while no worker runs; nothing indexed nor embedded in this process.
      expect(watch.stderr()).toBe(warning);
      expect(await indexedPaths(dataDir)).toEqual([]);
      expect(stack.embeddings[0]!.texts()).toBe(0);

      const worker = startCli(['worker', repo], workerEnv, spawned);
      expect(await queue.drained(100)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(await indexedPaths(dataDir)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
      expect(stack.embeddings[1]!.texts()).toBeGreaterThan(0);

      killGroup(watch.child, 'SIGINT');
      expect(await watch.exited).toBe(0);
      expect(watch.stderr()).toBe(`${warning}\nmonorag: stopping the watch (SIGINT); the changes seen are on the queue ${name} for the workers.\n`);
      expect(stack.embeddings[0]!.texts()).toBe(0);
      expect(lock.seen()).toBe(false);
    } finally {
      lock.stop();
    }
  }, 120_000);

  it("`monorag gateway` (watching) enqueues instead of indexing, holds no index lock, and leaves a commit's paths to the hook's own run", async () => {
    const { repo, dataDir, name, queue, env } = queueProject({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
    const installed = await runCli(['hooks', 'install', repo, '--command', CLI_SHELL_COMMAND], env);
    expect(installed.code, installed.stderr).toBe(0);
    const lock = lockWatch(dataDir);
    const port = await findFreePort();
    const gateway = startCli(['gateway', repo, '--port', String(port)], env, spawned);
    try {
      await until(() => gateway.stderr().includes('monorag: gateway for '), 'the gateway to listen');
      await until(async () => (await waiting(queue)).length === 2, 'the start-up jobs');
      expect(await waiting(queue)).toEqual(['src/a.ts', 'src/b.ts']);
      await until(() => gateway.stderr().includes('no worker is connected'), 'the no-worker warning');
      expect(occurrences(gateway.stderr(), `no worker is connected to ${name}; start one with \`monorag worker ${repo}\``)).toBe(1);

      // An edit, committed: the watcher enqueues the file; the post-commit hook's own run enqueues the commit's paths.
      writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('alphaToken2'));
      git(repo, 'add', '-A');
      execFileSync('git', ['commit', '-q', '-m', 'edit a'], { cwd: repo, env: { ...process.env, ...env } });
      const log = path.join(dataDir, 'hooks.log');
      const logText = (): string => (existsSync(log) ? readFileSync(log, 'utf8') : '');
      await until(() => logText().includes('for the workers'), () => `the hook's line (so far: ${logText()})`);
      expect(logText()).toMatch(new RegExp(`^\\S+Z post-commit: queued 1 path\\(s\\); put 1 file job\\(s\\) on ${name} for the workers in \\d+ ms\\n$`));
      expect(await waiting(queue)).toEqual(['src/a.ts', 'src/b.ts']);

      const status = (await (await fetch(`http://127.0.0.1:${port}/v1/status`)).json()) as { files: number };
      expect(status.files).toBe(0);
      expect(await indexedPaths(dataDir)).toEqual([]);
      expect(stack.embeddings[0]!.texts()).toBe(0);
      expect(lock.seen()).toBe(false);
      expect(occurrences(gateway.stderr(), 'no worker is connected')).toBe(1);
    } finally {
      lock.stop();
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
    }
  }, 120_000);

  it('`monorag gateway` started while Redis does not answer serves the index as it is and enqueues the changes once Redis answers; Redis lost again, sync_index answers at once', async () => {
    const port = await findFreePort();
    const redisUrl = `redis://127.0.0.1:${port}`;
    const { repo, env: stackEnv } = queueProject({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
    const env = { ...stackEnv, REDIS_URL: redisUrl };
    const built = await runCli(['index', repo], { ...env, MONORAG_QUEUE: 'memory' });
    expect(built.code, built.stderr).toBe(0);
    const gatewayPort = await findFreePort();
    const gateway = startCli(['gateway', repo, '--port', String(gatewayPort)], env, spawned);
    let redis: TestRedis | undefined;
    const queue = createBullmqIndexQueue({ redisUrl, project: localIndexKey(env.MONORAG_PROJECT, path.join(repo, '.monorag')) });
    queues.push(queue);
    try {
      await until(() => gateway.stderr().includes('monorag: gateway for '), 'the gateway to listen', 30_000);
      expect(gateway.stderr()).toContain('the file-job queue does not answer: serving the index as it is');
      const response = await fetch(`http://127.0.0.1:${gatewayPort}/v1/search`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'alphaToken', mode: 'lexical' }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { results: { path: string }[]; index: { warning: string } };
      expect(body.results[0]!.path).toBe('src/a.ts');
      expect(body.index.warning).toContain('could not be read');
      const health = (await (await fetch(`http://127.0.0.1:${gatewayPort}/health`)).json()) as { status: string; queue: { ok: boolean } };
      expect(health).toMatchObject({ status: 'degraded', queue: { ok: false } });

      writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('alphaToken2'));
      redis = await startRedisServer({ port });
      await until(async () => (await waiting(queue)).includes('src/a.ts'), 'the edit enqueued once Redis answers', 40_000);
      expect(await waiting(queue)).toEqual(['src/a.ts']);
      expect(gateway.stderr()).toContain('the file-job queue answers again');

      // Redis lost once connected: `sync_index` answers at once instead of waiting for the outage to end.
      await redis.stop();
      redis = undefined;
      const client = new Client({ name: 'monorag-e2e-http', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${gatewayPort}/mcp`)));
      try {
        await until(async () => {
          const result = (await client.callTool({ name: 'sync_index', arguments: { wait: true } })) as { isError?: boolean; content: Array<{ text: string }> };
          return result.isError === true && result.content[0]!.text.startsWith('QUEUE_UNAVAILABLE: The connection to Redis (127.0.0.1:');
        }, 'sync_index to refuse while Redis is down', 20_000);
        const started = Date.now();
        const result = (await client.callTool({ name: 'sync_index', arguments: { wait: true } })) as { isError?: boolean; content: Array<{ text: string }> };
        expect(result.isError).toBe(true);
        expect(Date.now() - started).toBeLessThan(3000);
      } finally {
        await client.close();
      }
    } finally {
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
      await queue.close();
      queues.splice(queues.indexOf(queue), 1);
      await redis?.stop();
    }
  }, 120_000);
});
