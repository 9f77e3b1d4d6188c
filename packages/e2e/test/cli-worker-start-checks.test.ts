import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedis } from '@monorag/indexer/queue';
import { runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo, tokenFile } from './git-repo.js';

let redis: TestRedis;
let embedding: FakeEmbeddingHttp;
const cleanup: string[] = [];

beforeAll(async () => {
  [redis, embedding] = await Promise.all([startRedisServer({ args: ['--databases', '4'] }), startFakeEmbeddingHttp()]);
});
afterAll(async () => {
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
    const runs = await Promise.all([runCli(['jobs', '--project', project], env), runCli(['jobs', 'enqueue', project], env), runCli(['worker', project], env)]);
    for (const run of runs) expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 1, stdout: '', stderr: expected });
    expect(existsSync(data)).toBe(false);
  }, 60_000);
});
