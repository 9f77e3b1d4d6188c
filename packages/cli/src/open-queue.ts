import { circuitSafeBackoffMs, createBullmqIndexQueue, type BullmqIndexQueue } from '@monorag/indexer/queue';
import type { Config } from '@monorag/shared';
import type { ProjectContext } from './project-context.js';
import { projectKey, redisUrlOf } from './store-factory.js';

/**
 * The first retry delay of the project's file jobs, in ms: `queue.backoffMs` raised to
 * {@link circuitSafeBackoffMs} for `queue.attempts` (3,000 ms with the default 5 attempts; the
 * arithmetic is in its docstring), so that a job's retries outlast the embedder client's open circuit
 * instead of all failing inside it. A larger configured value is kept.
 */
export function jobBackoffMs(queue: Pick<Config['queue'], 'attempts' | 'backoffMs'>): number {
  return Math.max(queue.backoffMs, circuitSafeBackoffMs(queue.attempts));
}

/** The project's BullMQ file-job queue (REDIS_URL, the project key, the configured attempts, {@link jobBackoffMs}). */
export function openQueue(context: ProjectContext): BullmqIndexQueue {
  const { queue } = context.config;
  return createBullmqIndexQueue({
    redisUrl: redisUrlOf(context),
    project: projectKey(context),
    attempts: queue.attempts,
    backoffMs: jobBackoffMs(queue),
    logger: context.logger,
  });
}
