import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const root = (): string => mkdtempSync(path.join(tmpdir(), 'monorag-config-'));

describe('loadConfig: store and queue (team stack)', () => {
  it('defaults to the embedded SQLite store and the in-process queue', () => {
    const config = loadConfig({ projectRoot: root(), env: {} });
    expect(config.store).toEqual({ kind: 'sqlite', qdrant: { collectionPrefix: 'monorag' } });
    expect(config.queue).toEqual({ kind: 'memory', concurrency: 2, attempts: 5, backoffMs: 1000, lockSeconds: 30 });
  });

  it('reads MONORAG_STORE, QDRANT_URL, QDRANT_API_KEY, MONORAG_PROJECT, MONORAG_QUEUE, REDIS_URL, MONORAG_WORKER_CONCURRENCY, MONORAG_QUEUE_LOCK_SECONDS', () => {
    const config = loadConfig({
      projectRoot: root(),
      env: {
        MONORAG_STORE: 'qdrant', QDRANT_URL: 'http://qdrant:6333', QDRANT_API_KEY: 'k', MONORAG_PROJECT: 'team-repo',
        MONORAG_QUEUE: 'bullmq', REDIS_URL: 'redis://redis:6379', MONORAG_WORKER_CONCURRENCY: '4', MONORAG_QUEUE_LOCK_SECONDS: '5',
      },
    });
    expect(config.store).toEqual({ kind: 'qdrant', qdrant: { url: 'http://qdrant:6333', apiKey: 'k', project: 'team-repo', collectionPrefix: 'monorag' } });
    expect(config.queue).toMatchObject({ kind: 'bullmq', redisUrl: 'redis://redis:6379', concurrency: 4, lockSeconds: 5 });
  });

  it('refuses an unknown store or queue kind, naming the key', () => {
    expect(() => loadConfig({ projectRoot: root(), env: { MONORAG_STORE: 'lance' } })).toThrow(/"store.kind"/);
    expect(() => loadConfig({ projectRoot: root(), env: { MONORAG_QUEUE: 'kafka' } })).toThrow(/"queue.kind"/);
  });
});
