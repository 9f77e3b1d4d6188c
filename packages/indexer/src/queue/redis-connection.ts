import { Redis } from 'ioredis';
import { ErrorCode, MonoragError } from '@monorag/shared';

/** Milliseconds a queue or worker waits for Redis to answer before giving up, by default. */
export const REDIS_CONNECT_TIMEOUT_MS = 5000;

/** A Redis connection as BullMQ needs it: `maxRetriesPerRequest: null` so blocking commands never give up. */
export function createRedisConnection(redisUrl: string): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: null });
}

/** `host:port` of a Redis URL (port 6379 when it has none), for messages; the URL itself when it does not parse. */
export function redisAddress(redisUrl: string): string {
  if (!URL.canParse(redisUrl)) return redisUrl;
  const url = new URL(redisUrl);
  return `${url.hostname}:${url.port || '6379'}`;
}

/** The Redis URL with its password replaced by `***`, for messages. */
export function redactRedisUrl(redisUrl: string): string {
  if (!URL.canParse(redisUrl)) return redisUrl;
  const url = new URL(redisUrl);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * Resolves once `connection` is ready (at once when it already is). Does not close the connection on
 * failure: the caller disconnects it.
 * @param timeoutMs how long to wait, in milliseconds.
 * @throws MonoragError QUEUE_UNAVAILABLE naming REDIS_URL, the address and the last connection error
 *   when Redis has not answered within `timeoutMs` or the connection was closed meanwhile.
 */
export async function waitForRedis(connection: Redis, redisUrl: string, timeoutMs = REDIS_CONNECT_TIMEOUT_MS): Promise<void> {
  if (connection.status === 'ready') return;
  let lastError: Error | undefined;
  let timer: NodeJS.Timeout | undefined;
  const onError = (error: Error): void => {
    lastError = error;
  };
  let onReady = (): void => undefined;
  let onEnd = (): void => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onEnd = () => reject(redisUnavailable(redisUrl, `the connection was closed${lastError ? ` after ${lastError.message}` : ''}`, lastError));
      connection.on('error', onError);
      connection.once('ready', onReady);
      connection.once('end', onEnd);
      timer = setTimeout(
        () => reject(redisUnavailable(redisUrl, `no answer within ${timeoutMs / 1000} s${lastError ? ` (${lastError.message})` : ''}`, lastError)),
        timeoutMs,
      );
    });
  } finally {
    clearTimeout(timer);
    connection.off('error', onError);
    connection.off('ready', onReady);
    connection.off('end', onEnd);
  }
}

/** A watch on a connection, from {@link watchConnectionLoss}. */
export interface ConnectionLossWatch {
  /** Resolves when the connection is lost (never rejects). */
  lost: Promise<void>;
  /** Removes the watch's listeners (call once the watch is no longer needed). */
  cancel(): void;
}

/**
 * Watches `connection` for loss: `lost` resolves at once when the connection is not ready now, else
 * at its next `close`, `reconnecting` or `end` event (Redis went away, or the connection was closed).
 */
export function watchConnectionLoss(connection: Redis): ConnectionLossWatch {
  let onLost = (): void => undefined;
  const events = ['close', 'reconnecting', 'end'] as const;
  const lost = new Promise<void>((resolve) => {
    onLost = () => resolve();
    if (connection.status !== 'ready') resolve();
  });
  for (const event of events) connection.once(event, onLost);
  return {
    lost,
    cancel: () => {
      for (const event of events) connection.off(event, onLost);
    },
  };
}

function redisUnavailable(redisUrl: string, reason: string, cause: Error | undefined): MonoragError {
  return new MonoragError(
    ErrorCode.QUEUE_UNAVAILABLE,
    `Cannot connect to Redis at ${redisAddress(redisUrl)} (REDIS_URL=${redactRedisUrl(redisUrl)}): ${reason}. ` +
      'Start Redis there, or set REDIS_URL (queue.redisUrl in monorag.json) to a reachable redis:// or rediss:// URL.',
    { cause },
  );
}
