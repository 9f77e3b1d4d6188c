import { randomUUID } from 'node:crypto';
import { QueueEvents } from 'bullmq';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullmqIndexQueue } from './bullmq-index-queue.js';
import { createRedisConnection } from './redis-connection.js';
import { startBullmqIndexWorker } from './bullmq-index-worker.js';
import { fileJobId, indexQueueName, type FileJobData, type FileJobProgress } from './file-job.js';
import { startRedisServer, type TestRedis } from './testing/start-redis-server.js';

let redis: TestRedis;
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(async () => {
  redis = await startRedisServer();
  provider.register();
});
afterAll(async () => {
  await redis?.stop();
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const until = async (check: () => Promise<boolean> | boolean): Promise<void> => {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('BullMQ index queue (real redis-server)', () => {
  it('coalesces repeated changes of one path into one waiting job whose id comes from project and path', async () => {
    const project = `p-${randomUUID()}`;
    const queue = createBullmqIndexQueue({ redisUrl: redis.url, project });
    await queue.enqueue(['src/a.ts', 'src/a.ts', 'src/b.ts']);
    await queue.enqueue(['src/a.ts']);
    expect(await queue.counts()).toEqual({ waiting: 2, active: 0, delayed: 0, failed: 0, completed: 0 });
    const listed = await queue.list(['waiting']);
    expect(listed.map((j) => [j.id, j.path]).sort()).toEqual([
      [fileJobId(project, 'src/a.ts'), 'src/a.ts'],
      [fileJobId(project, 'src/b.ts'), 'src/b.ts'],
    ].sort());
    expect(queue.name).toBe(indexQueueName(project));
    await queue.close();
  });

  it('counts the workers on its own database only: one of the same project on database 1 is not connected to this queue', async () => {
    const project = `p-${randomUUID()}`;
    const queue = createBullmqIndexQueue({ redisUrl: redis.url, project });
    const processFile = async (data: FileJobData) => ({ path: data.path, outcome: 'indexed' as const, chunks: 1 });
    const otherDb = createBullmqIndexQueue({ redisUrl: `${redis.url}/1`, project });
    const elsewhere = await startBullmqIndexWorker({ redisUrl: `${redis.url}/1`, project, processFile });
    await until(async () => (await otherDb.workers()) === 1);
    expect(await queue.workers()).toBe(0);
    const here = await startBullmqIndexWorker({ redisUrl: redis.url, project, processFile });
    await until(async () => (await queue.workers()) > 0);
    expect(await queue.workers()).toBe(1);
    await here.close();
    await elsewhere.close();
    await otherDb.close();
    await queue.close();
  });

  it('one trace from the enqueuing span to the worker span, through the job data', async () => {
    const project = `p-${randomUUID()}`;
    const queue = createBullmqIndexQueue({ redisUrl: redis.url, project });
    const seen: FileJobData[] = [];
    const worker = await startBullmqIndexWorker({
      redisUrl: redis.url,
      project,
      processFile: async (data) => {
        seen.push(data);
        return { path: data.path, outcome: 'indexed', chunks: 1 };
      },
    });
    exporter.reset();
    const tracer = trace.getTracer('test');
    const root = await tracer.startActiveSpan('git hook post-commit', async (span) => {
      await queue.enqueue(['src/traced.ts']);
      span.end();
      return span.spanContext();
    });
    await until(() => exporter.getFinishedSpans().some((s) => s.name === 'index file'));
    const spans = exporter.getFinishedSpans();
    const byName = new Map(spans.map((s) => [s.name, s]));
    expect(seen[0]?.trace.traceparent).toMatch(new RegExp(`^00-${root.traceId}-[0-9a-f]{16}-01$`));
    expect(byName.get('enqueue files')?.spanContext().traceId).toBe(root.traceId);
    expect(byName.get('index file')?.spanContext().traceId).toBe(root.traceId);
    expect(byName.get('index file')?.parentSpanContext?.spanId).toBe(byName.get('enqueue files')?.spanContext().spanId);
    expect(byName.get('index file')?.attributes['monorag.path']).toBe('src/traced.ts');
    await worker.close();
    await queue.close();
  });

  it('retries with backoff, keeps a failed job for inspection, retries it on demand, and reports progress events', async () => {
    const project = `p-${randomUUID()}`;
    const queue = createBullmqIndexQueue({ redisUrl: redis.url, project, attempts: 3, backoffMs: 50 });
    const events = new QueueEvents(indexQueueName(project), { connection: createRedisConnection(redis.url) });
    await events.waitUntilReady();
    const progress: FileJobProgress[] = [];
    events.on('progress', ({ data }) => progress.push(data as unknown as FileJobProgress));
    let healthy = false;
    const attempts = new Map<string, number>();
    const worker = await startBullmqIndexWorker({
      redisUrl: redis.url,
      project,
      concurrency: 2,
      processFile: async (data, report) => {
        attempts.set(data.path, (attempts.get(data.path) ?? 0) + 1);
        if (data.path === 'bad.ts' && !healthy) throw new Error('embedder down');
        await report({ path: data.path, phase: 'written', chunks: 3 });
        return { path: data.path, outcome: 'indexed', chunks: 3 };
      },
    });
    await queue.enqueue(['good.ts', 'bad.ts']);
    await queue.drained(50);
    expect(await queue.counts()).toMatchObject({ waiting: 0, active: 0, failed: 1, completed: 0 });
    expect(attempts.get('bad.ts')).toBe(3);
    const [failed] = await queue.list(['failed']);
    expect(failed).toMatchObject({ path: 'bad.ts', state: 'failed', attemptsMade: 3, failedReason: 'embedder down' });

    healthy = true;
    expect(await queue.retryFailed()).toBe(1);
    await queue.drained(50);
    expect(await queue.counts()).toMatchObject({ failed: 0, completed: 0 });
    expect(attempts.get('bad.ts')).toBe(4);
    await until(() => progress.length >= 2);
    expect(progress.map((p) => p.path).sort()).toEqual(['bad.ts', 'good.ts']);
    await worker.close();
    await events.close();
    await queue.close();
  });

  it('enqueueing a path whose job failed retries that job', async () => {
    const project = `p-${randomUUID()}`;
    const queue = createBullmqIndexQueue({ redisUrl: redis.url, project, attempts: 1 });
    let fail = true;
    const worker = await startBullmqIndexWorker({
      redisUrl: redis.url,
      project,
      processFile: async (data) => {
        if (fail) throw new Error('nope');
        return { path: data.path, outcome: 'indexed', chunks: 0 };
      },
    });
    await queue.enqueue(['x.ts']);
    await queue.drained(50);
    expect((await queue.counts()).failed).toBe(1);
    fail = false;
    await queue.enqueue(['x.ts']);
    await queue.drained(50);
    expect((await queue.counts()).failed).toBe(0);
    await worker.close();
    await queue.close();
  });
});
