import { describe, expect, it } from 'vitest';
import { isMonoragError } from '@monorag/shared';
import { createBullmqIndexQueue } from './bullmq-index-queue.js';
import { startBullmqIndexWorker } from './bullmq-index-worker.js';
import { redactRedisUrl, redisAddress } from './redis-connection.js';
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
