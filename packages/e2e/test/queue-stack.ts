import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { startRedisServer, type BullmqIndexQueue, type TestRedis } from '@monorag/indexer/queue';
import { killGroup } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';

/** What a queue-mode e2e suite shares: started before its tests, stopped and removed after them. */
export interface QueueStack {
  /** A real redis-server started for the suite. */
  redis: TestRedis;
  /** The fake embedding servers, in the order asked for (one model, so one index identity). */
  embeddings: FakeEmbeddingHttp[];
  /** Processes the tests start (each in its own process group): killed with SIGKILL at the end. */
  spawned: ChildProcess[];
  /** Directories the tests make: removed at the end. */
  repos: string[];
  /** Queue handles the tests open: closed at the end, before Redis stops. */
  queues: BullmqIndexQueue[];
}

/**
 * Registers the suite's `beforeAll` (a Redis server and `embedders` fake embedding servers) and `afterAll`
 * (kill what the tests spawned, close their queues, stop Redis and the embedders, remove their repos), and
 * returns the {@link QueueStack} they fill: read `redis` and `embeddings` inside tests and hooks only.
 */
export function useQueueStack(embedders = 1): QueueStack {
  const stack = { embeddings: [], spawned: [], repos: [], queues: [] } as unknown as QueueStack;
  beforeAll(async () => {
    for (let i = 0; i < embedders; i++) stack.embeddings.push(await startFakeEmbeddingHttp());
    stack.redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const child of stack.spawned) killGroup(child, 'SIGKILL');
    for (const queue of stack.queues) await queue.close();
    await stack.redis?.stop();
    for (const embedding of stack.embeddings) await embedding.stop();
    for (const repo of stack.repos) rmSync(repo, { recursive: true, force: true });
  });
  return stack;
}
