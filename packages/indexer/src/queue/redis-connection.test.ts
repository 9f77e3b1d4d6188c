import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMonoragError, type Logger } from '@monorag/shared';
import { createBullmqIndexQueue } from './bullmq-index-queue.js';
import { startBullmqIndexWorker } from './bullmq-index-worker.js';
import { redactRedisUrl, redisAddress } from './redis-connection.js';
import { startRedisServer, type TestRedis } from './testing/start-redis-server.js';
import { findFreePort } from '@monorag/embedder-client';


describe('Redis that cannot be reached', () => {
  it('the queue fails its first operation after connectTimeoutMs naming REDIS_URL and the address, and closes at once', async () => {
    const port = await findFreePort();
    const queue = createBullmqIndexQueue({ redisUrl: `redis://127.0.0.1:${port}`, project: 'p', connectTimeoutMs: 500 });
    const started = Date.now();
    const error = await queue.counts().catch((e: unknown) => e);
    expect(isMonoragError(error, 'QUEUE_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toBe(
      `Cannot connect to Redis at 127.0.0.1:${port} (REDIS_URL=redis://127.0.0.1:${port}): no answer within 0.5 s (connect ECONNREFUSED 127.0.0.1:${port}). ` +
        'Start Redis there, or set REDIS_URL (queue.redisUrl in monorag.json) to a reachable redis:// or rediss:// URL.',
    );
    expect(Date.now() - started).toBeLessThan(3000);
    await expect(queue.enqueue(['a.ts'])).rejects.toBe(error);
    await queue.close();
  });

  it('the worker does not start', async () => {
    const port = await findFreePort();
    const start = startBullmqIndexWorker({ redisUrl: `redis://127.0.0.1:${port}`, project: 'p', connectTimeoutMs: 500, processFile: () => Promise.reject(new Error('not called')) });
    await expect(start).rejects.toThrow(`Cannot connect to Redis at 127.0.0.1:${port}`);
  });

  it('messages name host:port and hide the password', () => {
    expect(redisAddress('rediss://user:pw@cache.example')).toBe('cache.example:6379');
    expect(redactRedisUrl('rediss://user:pw@cache.example:6380/1')).toBe('rediss://user:***@cache.example:6380/1');
  });
});

/** A logger that records `[level, message]` of each line. */
function recordingLogger(): { logger: Logger; lines: [string, string][] } {
  const lines: [string, string][] = [];
  const at = (level: string) => (_fields: unknown, message: string) => lines.push([level, message]);
  return { logger: { warn: at('warn'), error: at('error'), info: at('info'), debug: at('debug') } as unknown as Logger, lines };
}

/** The queue's first operation's error, and how long it took to come, in ms. */
async function firstError(redisUrl: string, logger?: Logger): Promise<{ error: unknown; ms: number }> {
  const queue = createBullmqIndexQueue({ redisUrl, project: 'p', connectTimeoutMs: 5000, logger });
  const started = Date.now();
  const error = await queue.counts().catch((e: unknown) => e);
  const ms = Date.now() - started;
  await expect(queue.enqueue(['a.ts'])).rejects.toBe(error);
  await queue.close();
  return { error, ms };
}

describe('Redis that refuses the connection (real redis-server)', () => {
  let redis: TestRedis;
  let guarded: TestRedis;
  let noConfig: TestRedis;
  beforeAll(async () => {
    [redis, guarded, noConfig] = await Promise.all([
      startRedisServer({ args: ['--databases', '4'] }),
      startRedisServer({ password: 'sekret' }),
      // CONFIG renamed away, as managed services do: the message cannot give the server's databases.
      startRedisServer({ args: ['--rename-command', 'CONFIG', ''] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([redis?.stop(), guarded?.stop(), noConfig?.stop()]);
  });

  it('a database the server does not have: the queue fails at once naming REDIS_URL, the database and the databases there are, not as an empty queue on database 0', async () => {
    const { logger, lines } = recordingLogger();
    const { error, ms } = await firstError(`${redis.url}/99`, logger);
    expect(isMonoragError(error, 'QUEUE_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toBe(
      `Cannot use Redis at 127.0.0.1:${redis.port} (REDIS_URL=${redis.url}/99): it has no database 99 (ERR DB index is out of range); ` +
        'it has databases 0..3 (its `databases` setting). Put one of those at the end of REDIS_URL (redis://host:port/N; without /N it is 0), ' +
        "or raise `databases` in the server's configuration.",
    );
    expect(ms).toBeLessThan(2000);
    // waitForRedis says it; the queue's error listener does not add a `queue error` line.
    expect(lines.filter(([level]) => level !== 'debug')).toEqual([]);
  });

  it('a database the server does not have, on a server without CONFIG: the message falls back to the rule', async () => {
    const { error } = await firstError(`${noConfig.url}/16`);
    expect((error as Error).message).toBe(
      `Cannot use Redis at 127.0.0.1:${noConfig.port} (REDIS_URL=${noConfig.url}/16): it has no database 16 (ERR DB index is out of range); ` +
        "its databases are 0 to one less than its `databases` setting (16 unless the server's configuration says otherwise). " +
        "Put one of those at the end of REDIS_URL (redis://host:port/N; without /N it is 0), or raise `databases` in the server's configuration.",
    );
  });

  it('a database the server has works', async () => {
    const queue = createBullmqIndexQueue({ redisUrl: `${redis.url}/3`, project: 'p' });
    expect(await queue.counts()).toMatchObject({ waiting: 0, failed: 0 });
    await queue.close();
  });

  it('a wrong password or user fails at once (not after the connect timeout), with the password hidden', async () => {
    for (const auth of [':wrong', 'bob:sekret']) {
      const url = `redis://${auth}@127.0.0.1:${guarded.port}`;
      const { error, ms } = await firstError(url);
      expect(isMonoragError(error, 'QUEUE_UNAVAILABLE')).toBe(true);
      expect((error as Error).message).toBe(
        `Cannot use Redis at 127.0.0.1:${guarded.port} (REDIS_URL=${redactRedisUrl(url)}): it does not accept the user and password of REDIS_URL ` +
          '(WRONGPASS invalid username-password pair or user is disabled). ' +
          "Put the server's password in REDIS_URL: redis://:PASSWORD@host:port for its `requirepass`, redis://USER:PASSWORD@host:port for an ACL user.",
      );
      expect((error as Error).message).not.toContain('wrong');
      expect(ms).toBeLessThan(2000);
    }
  });

  it('no password where the server requires one fails at once saying so', async () => {
    const { error, ms } = await firstError(guarded.url);
    expect((error as Error).message).toMatch(
      new RegExp(`^Cannot use Redis at 127\\.0\\.0\\.1:${guarded.port} \\(REDIS_URL=redis://127\\.0\\.0\\.1:${guarded.port}\\): it requires a password and REDIS_URL gives none \\(NOAUTH `),
    );
    expect(ms).toBeLessThan(2000);
  });

  it('the right password works', async () => {
    const queue = createBullmqIndexQueue({ redisUrl: `redis://:sekret@127.0.0.1:${guarded.port}/2`, project: 'p' });
    expect(await queue.counts()).toMatchObject({ waiting: 0 });
    await queue.close();
  });

  it('the worker does not start on a refused database or password', async () => {
    for (const url of [`${redis.url}/99`, `redis://:wrong@127.0.0.1:${guarded.port}`]) {
      const start = startBullmqIndexWorker({ redisUrl: url, project: 'p', processFile: () => Promise.reject(new Error('not called')) });
      await expect(start).rejects.toThrow(`Cannot use Redis at 127.0.0.1:`);
    }
  });
});
