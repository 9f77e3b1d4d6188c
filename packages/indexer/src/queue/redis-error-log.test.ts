import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Logger } from '@monorag/shared';
import { logRedisErrors } from './redis-error-log.js';

/** A logger that records `[level, message, fields]`. */
function recordingLogger(): { logger: Logger; lines: [string, string, Record<string, unknown>][] } {
  const lines: [string, string, Record<string, unknown>][] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => lines.push([level, message, fields]);
  return { logger: { warn: at('warn'), error: at('error'), info: at('info'), debug: at('debug') } as unknown as Logger, lines };
}

function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6399'), { code: 'ECONNREFUSED' });
}

describe('logRedisErrors', () => {
  it('one warning when a ready connection is lost and one when it is back, not one line per reconnection attempt', () => {
    const connection = Object.assign(new EventEmitter(), { status: 'ready' }) as unknown as Redis;
    const { logger, lines } = recordingLogger();
    const onError = logRedisErrors({ connection, redisUrl: 'redis://127.0.0.1:6399', logger, message: 'worker error' });
    for (let i = 0; i < 50; i++) {
      onError(refused());
      connection.emit('reconnecting');
    }
    connection.emit('ready');
    expect(lines).toEqual([
      ['warn', 'Redis connection lost; retrying', { redis: '127.0.0.1:6399', error: 'connect ECONNREFUSED 127.0.0.1:6399' }],
      ['warn', 'Redis connection back', { redis: '127.0.0.1:6399', errors: 49 }],
    ]);
  });

  it('before the first ready, connection errors are debug lines only; other errors are logged once per message per repeatMs', () => {
    const connection = Object.assign(new EventEmitter(), { status: 'connecting' }) as unknown as Redis;
    const { logger, lines } = recordingLogger();
    let now = 0;
    const onError = logRedisErrors({ connection, redisUrl: 'redis://:secret@redis:6380', logger, message: 'worker error', repeatMs: 1000, now: () => now });
    onError(refused());
    connection.emit('reconnecting');
    for (let i = 0; i < 5; i++) onError(new Error('Missing lock for job 1'));
    now = 1500;
    onError(new Error('Missing lock for job 1'));
    expect(lines).toEqual([
      ['debug', 'Redis not reachable yet', { redis: 'redis:6380', error: 'connect ECONNREFUSED 127.0.0.1:6399' }],
      ['error', 'worker error', { error: 'Missing lock for job 1' }],
      ['error', 'worker error', { error: 'Missing lock for job 1' }],
    ]);
  });
});
