import { circuitSafeBackoffMs, createBullmqIndexQueue, type BullmqIndexQueue } from '@monorag/indexer/queue';
import type { Config } from '@monorag/shared';
import type { ProjectContext } from './project-context.js';
import { projectKey } from './project-key.js';
import { redisUrlOf } from './store-factory.js';

/**
 * The first retry delay of the project's file jobs, in ms: `queue.backoffMs` raised to
 * {@link circuitSafeBackoffMs} for `queue.attempts` (3,000 ms with the default 5 attempts; the
 * arithmetic is in its docstring), so that a job's retries outlast the embedder client's open circuit
 * instead of all failing inside it. A larger configured value is kept.
 */
export function jobBackoffMs(queue: Pick<Config['queue'], 'attempts' | 'backoffMs'>): number {
  return Math.max(queue.backoffMs, circuitSafeBackoffMs(queue.attempts));
}

/**
 * The project's BullMQ file-job queue (REDIS_URL, {@link projectKey}, the configured attempts, {@link jobBackoffMs}).
 * @throws MonoragError `CONFIG_INVALID` when no Redis URL is configured.
 */
export async function openQueue(context: ProjectContext): Promise<BullmqIndexQueue> {
  const { queue } = context.config;
  const redisUrl = redisUrlOf(context);
  return createBullmqIndexQueue({
    redisUrl,
    project: await projectKey(context),
    attempts: queue.attempts,
    backoffMs: jobBackoffMs(queue),
    logger: context.logger,
  });
}
