import { createBullmqIndexQueue, type BullmqIndexQueue } from '@monorag/indexer/queue';
import type { ProjectContext } from './project-context.js';
import { projectKey, redisUrlOf } from './store-factory.js';

/** The project's BullMQ file-job queue (REDIS_URL, the project key, the configured attempts and backoff). */
export function openQueue(context: ProjectContext): BullmqIndexQueue {
  const { queue } = context.config;
  return createBullmqIndexQueue({ redisUrl: redisUrlOf(context), project: projectKey(context), attempts: queue.attempts, backoffMs: queue.backoffMs, logger: context.logger });
}
