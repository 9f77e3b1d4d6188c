import type { Redis } from 'ioredis';
import type { Logger } from '@monorag/shared';
import { isRedisSetupRefusal, redisAddress } from './redis-connection.js';

/** Options of {@link logRedisErrors}. */
export interface RedisErrorLogOptions {
  /** The connection whose `reconnecting` and `ready` events mark an outage's start and end. */
  connection: Redis;
  redisUrl: string;
  logger?: Logger;
  /** Log message of errors that are not about the connection, e.g. `worker error`. */
  message: string;
  /** Milliseconds within which a repeated error message is logged only once; default 60000. */
  repeatMs?: number;
  /** Clock, in milliseconds since the epoch (tests). */
  now?: () => number;
}

/** Node error codes of a lost or refused network connection. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

function isConnectionError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (code !== undefined && CONNECTION_CODES.has(code)) || /Connection is closed/i.test(error.message);
}

/**
 * The `error` listener of a BullMQ queue or worker on `connection`, throttled: ioredis reconnects
 * every few hundred ms while Redis is away and each attempt is an error event. Logs one warning when
 * the connection is lost (`Redis connection lost`) and one when it is back (`Redis connection back`,
 * with the number of errors left out); other errors at most once per message per `repeatMs`. Before
 * the connection was first ready, connection errors and Redis's refusals of the connection's set-up
 * (a wrong password, a database it does not have) are only debug lines: `waitForRedis` reports a
 * Redis that cannot be reached or refuses the connection at start-up.
 * @returns the listener to pass to `on('error', ...)`.
 */
export function logRedisErrors({ connection, redisUrl, logger, message, repeatMs = 60_000, now = Date.now }: RedisErrorLogOptions): (error: Error) => void {
  const redis = redisAddress(redisUrl);
  let everReady = connection.status === 'ready';
  let down = false;
  let suppressed = 0;
  const lastLogged = new Map<string, number>();
  const lost = (error?: Error): void => {
    down = true;
    logger?.warn({ redis, ...(error ? { error: error.message } : {}) }, 'Redis connection lost; retrying');
  };
  // Emitted only when ioredis will retry, not after a deliberate quit.
  connection.on('reconnecting', () => {
    if (everReady && !down) lost();
  });
  connection.on('ready', () => {
    everReady = true;
    if (!down) return;
    logger?.warn({ redis, errors: suppressed }, 'Redis connection back');
    down = false;
    suppressed = 0;
  });
  return (error) => {
    if (down) {
      suppressed++;
      return;
    }
    if (isConnectionError(error)) {
      if (everReady) return lost(error);
      return logger?.debug({ redis, error: error.message }, 'Redis not reachable yet');
    }
    if (!everReady && isRedisSetupRefusal(connection, error)) return logger?.debug({ redis, error: error.message }, 'Redis refused the connection set-up');
    const last = lastLogged.get(error.message);
    if (last !== undefined && now() - last < repeatMs) return;
    lastLogged.set(error.message, now());
    logger?.error({ error: error.message }, message);
  };
}
