import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createBullmqIndexQueue } from './bullmq-index-queue.js';
import { startBullmqIndexWorker, type BullmqIndexWorker } from './bullmq-index-worker.js';
import { startRedisServer, type TestRedis } from './testing/start-redis-server.js';

const servers: TestRedis[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** A worker on its own redis-server whose jobs wait until `release` is called. */
async function startBlockingWorker(): Promise<{ redis: TestRedis; worker: BullmqIndexWorker; started: Promise<void>; release: () => void }> {
  const redis = await startRedisServer();
  servers.push(redis);
  const project = `p-${randomUUID()}`;
  let release = (): void => undefined;
  let markStarted = (): void => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const worker = await startBullmqIndexWorker({
    redisUrl: redis.url,
    project,
    processFile: async (data) => {
      markStarted();
      await new Promise<void>((resolve) => (release = resolve));
      return { path: data.path, outcome: 'unchanged', chunks: 0 };
    },
  });
  const queue = createBullmqIndexQueue({ redisUrl: redis.url, project });
  await queue.enqueue(['src/a.ts']);
  await queue.close();
  return { redis, worker, started, release: () => release() };
}

describe('closing a BullMQ index worker (real redis-server)', () => {
  it('with Redis up: waits for the active job and reports `closed`', async () => {
    const { worker, started, release } = await startBlockingWorker();
    await started;
    const closing = worker.close();
    setTimeout(release, 200);
    expect(await closing).toBe('closed');
  });

  it('with Redis already down: returns `redis-unreachable` at once instead of waiting for Redis', async () => {
    const { redis, worker, started } = await startBlockingWorker();
    await started;
    await redis.stop();
    const t0 = Date.now();
    expect(await worker.close()).toBe('redis-unreachable');
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('with Redis lost while it waits for the active job: returns `redis-unreachable` once the connection drops', async () => {
    const { redis, worker, started } = await startBlockingWorker();
    await started;
    const closing = worker.close();
    await redis.stop();
    const t0 = Date.now();
    expect(await closing).toBe('redis-unreachable');
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
