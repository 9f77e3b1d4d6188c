import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CIRCUIT_COOL_DOWN_MS } from '@monorag/embedder-client';
import { retryDelaysMs } from '@monorag/indexer/queue';
import { loadConfig } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { jobBackoffMs } from './open-queue.js';

const queueConfig = (overrides: { attempts?: number; backoffMs?: number } = {}) =>
  loadConfig({ projectRoot: mkdtempSync(path.join(tmpdir(), 'monorag-open-queue-')), env: {}, overrides: { queue: overrides } }).queue;

describe('jobBackoffMs: the CLI queue\'s first retry delay', () => {
  it('raises the configured default (1 s) so the retries after the second try outlast the embedder circuit: 3 s', () => {
    const queue = queueConfig();
    expect(queue.backoffMs).toBe(1000);
    expect(jobBackoffMs(queue)).toBe(3000);
    const laterRetries = retryDelaysMs(queue.attempts, jobBackoffMs(queue)).slice(1);
    expect(laterRetries.reduce((sum, d) => sum + d, 0)).toBeGreaterThan(CIRCUIT_COOL_DOWN_MS);
  });

  it('keeps a larger configured delay, and follows the configured attempts', () => {
    expect(jobBackoffMs(queueConfig({ backoffMs: 10_000 }))).toBe(10_000);
    expect(jobBackoffMs(queueConfig({ attempts: 3 }))).toBe(16_000);
  });
});
