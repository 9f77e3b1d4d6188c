import { randomUUID } from 'node:crypto';
import { Backoffs, Queue, type BackoffOptions } from 'bullmq';
import { CIRCUIT_COOL_DOWN_MS } from '@monorag/embedder-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullmqIndexQueue } from './bullmq-index-queue.js';
import { fileJobId } from './file-job.js';
import { createRedisConnection } from './redis-connection.js';
import { circuitSafeBackoffMs, retryDelaysMs } from './retry-schedule.js';
import { startRedisServer, type TestRedis } from './testing/start-redis-server.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

describe('the file jobs\' retry schedule and the embedder circuit', () => {
  it('derives the first delay from the circuit window: 3 s for 5 attempts and 30 s, 31 s for 2, none for 1', () => {
    expect(CIRCUIT_COOL_DOWN_MS).toBe(30_000);
    expect(circuitSafeBackoffMs(5)).toBe(3000);
    expect(retryDelaysMs(5, 3000)).toEqual([3000, 6000, 12_000, 24_000]);
    expect(circuitSafeBackoffMs(3)).toBe(16_000);
    expect(circuitSafeBackoffMs(2)).toBe(31_000);
    expect(circuitSafeBackoffMs(1)).toBe(0);
    expect(() => circuitSafeBackoffMs(0)).toThrow(RangeError);
  });

  it('a job enqueued with the default options is retried past the open circuit (real redis-server, BullMQ\'s own backoff)', async () => {
    const project = `p-${randomUUID()}`;
    const queue = createBullmqIndexQueue({ redisUrl: redis.url, project });
    const connection = createRedisConnection(redis.url);
    const raw = new Queue(queue.name, { connection });
    try {
      await queue.enqueue(['src/a.ts']);
      const job = await raw.getJob(fileJobId(project, 'src/a.ts'));
      const attempts = job!.opts.attempts!;
      const backoff = Backoffs.normalize(job!.opts.backoff as BackoffOptions)!;
      // BullMQ's delay before each retry (attemptsMade = 1 .. attempts-1), as the worker computes it.
      const delays: number[] = [];
      for (let made = 1; made < attempts; made++) delays.push((await Backoffs.calculate(backoff, made, new Error('embedder down'), job!)) as number);
      expect({ attempts, delays }).toEqual({ attempts: 5, delays: [3000, 6000, 12_000, 24_000] });
      // The circuit opens at the latest during the second try: the last retry must come after it closed.
      expect(delays.slice(1).reduce((sum, d) => sum + d, 0)).toBeGreaterThan(CIRCUIT_COOL_DOWN_MS);
    } finally {
      await raw.close();
      await queue.close();
      await connection.quit();
    }
  });
});
