// Public surface of @monorag/indexer/queue (the BullMQ indexing queue and its worker): named exports only.
export { fileJobId, indexQueueName, type FileJobData, type FileJobProgress, type FileJobResult } from './file-job.js';
export { localIndexKey } from './local-index-key.js';
export { checkWorkerScanner } from './check-worker-scanner.js';
export { indexFile, type IndexFileOptions } from './index-file.js';
export { planFileJobs, type FileJobPlan, type PlanFileJobsOptions } from './plan-file-jobs.js';
export {
  createBullmqIndexQueue,
  type BullmqIndexQueue,
  type BullmqIndexQueueOptions,
  type JobCounts,
  type JobSummary,
} from './bullmq-index-queue.js';
export { createRedisConnection, redisAddress } from './redis-connection.js';
export { circuitSafeBackoffMs, retryDelaysMs } from './retry-schedule.js';
export { startBullmqIndexWorker, type BullmqIndexWorker, type BullmqIndexWorkerOptions, type WorkerCloseOutcome } from './bullmq-index-worker.js';
export { injectTraceContext, withJobSpan, QUEUE_TRACER } from './trace-context.js';
export { startRedisServer, type StartRedisServerOptions, type TestRedis } from './testing/start-redis-server.js';
export { writeTokenProject, type TokenProject } from './testing/token-project.js';
