import { Redis, ReplyError } from 'ioredis';
import { ErrorCode, MonoragError } from '@monorag/shared';

/** Milliseconds a queue or worker waits for Redis to answer before giving up, by default. */
export const REDIS_CONNECT_TIMEOUT_MS = 5000;

/** Milliseconds {@link waitForRedis} waits for `CONFIG GET databases` when it explains a refused database. */
const DATABASES_QUERY_MS = 1000;

/** An error Redis answered a command with (`ERR ...`, `WRONGPASS ...`, `NOAUTH ...`), with the command ioredis attaches. */
type RedisReplyError = Error & { command?: { name?: string } };

/**
 * The error Redis answered a connection's set-up commands with during its latest handshake (from its
 * `connect` event to `ready`): AUTH or HELLO (credentials), SELECT (the URL's database), the ready
 * check's INFO. ioredis only emits these as `error` events: after refused credentials it reconnects for
 * ever, and after a refused SELECT it even becomes ready, on database 0.
 */
const setupRefusals = new WeakMap<Redis, RedisReplyError>();

/** Whether `error` is Redis's answer to a command (a `ReplyError`), not a network or client failure. */
export function isRedisReplyError(error: Error): error is RedisReplyError {
  return error instanceof (ReplyError as new () => Error);
}

/**
 * Whether `error`, emitted by `connection`, is Redis refusing the connection's set-up (see
 * {@link waitForRedis}): a reply error while the connection is between `connect` and `ready`.
 */
export function isRedisSetupRefusal(connection: Redis, error: Error): boolean {
  return connection.status === 'connect' && isRedisReplyError(error);
}

/**
 * A Redis connection as BullMQ needs it: `maxRetriesPerRequest: null` so blocking commands never give
 * up. It records what Redis refuses while setting the connection up, for {@link waitForRedis}.
 */
export function createRedisConnection(redisUrl: string): Redis {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  connection.on('connect', () => setupRefusals.delete(connection));
  connection.on('error', (error: Error) => {
    if (isRedisSetupRefusal(connection, error)) setupRefusals.set(connection, error);
  });
  return connection;
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
 * Resolves once `connection` (from {@link createRedisConnection}) is ready (at once when it already is)
 * and Redis accepted its set-up. Does not close the connection on failure: the caller disconnects it.
 * @param timeoutMs how long to wait, in milliseconds.
 * @throws MonoragError QUEUE_UNAVAILABLE naming REDIS_URL (password hidden) and the address, at once
 *   when Redis refuses the connection's set-up: a database the server does not have (the message gives
 *   the server's databases, from `CONFIG GET databases` when it answers), credentials it does not accept
 *   (WRONGPASS, or NOAUTH without a password), or any other error answer before the connection is ready;
 *   else with the last connection error when Redis has not answered within `timeoutMs` or the
 *   connection was closed meanwhile.
 */
export async function waitForRedis(connection: Redis, redisUrl: string, timeoutMs = REDIS_CONNECT_TIMEOUT_MS): Promise<void> {
  const refusedBefore = setupRefusals.get(connection);
  if (refusedBefore) throw await redisRefused(connection, redisUrl, refusedBefore);
  if (connection.status === 'ready') return;
  let lastError: Error | undefined;
  let refused: RedisReplyError | undefined;
  let timer: NodeJS.Timeout | undefined;
  let onError: (error: Error) => void = () => undefined;
  let onReady = (): void => undefined;
  let onEnd = (): void => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onError = (error) => {
        lastError = error;
        refused = setupRefusals.get(connection);
        // Redis answered, with a refusal: waiting longer would only repeat it.
        if (refused) resolve();
      };
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
  if (refused) throw await redisRefused(connection, redisUrl, refused);
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

/**
 * QUEUE_UNAVAILABLE for a Redis that refused the connection's set-up with `error`, saying what to
 * change: the database of the URL, the credentials, or (for another refusal) the URL or the server.
 */
async function redisRefused(connection: Redis, redisUrl: string, error: RedisReplyError): Promise<MonoragError> {
  const command = error.command?.name?.toLowerCase();
  const answer = error.message.replace(/\.$/, '');
  const db = connection.options.db ?? 0;
  let detail: string;
  if (command === 'select' || /DB index is out of range/i.test(error.message)) {
    const databases = await serverDatabases(connection);
    detail =
      `it has no database ${db} (${answer}); ` +
      (databases === undefined
        ? "its databases are 0 to one less than its `databases` setting (16 unless the server's configuration says otherwise). "
        : `it has databases 0..${databases - 1} (its \`databases\` setting). `) +
      'Put one of those at the end of REDIS_URL (redis://host:port/N; without /N it is 0), or raise `databases` in the server\'s configuration.';
  } else if (/^(WRONGPASS|NOAUTH)\b|invalid password|invalid username-password/i.test(error.message)) {
    const given = URL.canParse(redisUrl) && new URL(redisUrl).password !== '';
    detail =
      `${given ? 'it does not accept the user and password of REDIS_URL' : 'it requires a password and REDIS_URL gives none'} (${answer}). ` +
      "Put the server's password in REDIS_URL: redis://:PASSWORD@host:port for its `requirepass`, redis://USER:PASSWORD@host:port for an ACL user.";
  } else {
    detail =
      `it refused to set the connection up (${answer}${command ? `, answering ${command.toUpperCase()}` : ''}). ` +
      "Check REDIS_URL and the server's configuration.";
  }
  return new MonoragError(ErrorCode.QUEUE_UNAVAILABLE, `Cannot use Redis at ${redisAddress(redisUrl)} (REDIS_URL=${redactRedisUrl(redisUrl)}): ${detail}`, {
    cause: error,
  });
}

/**
 * The server's `databases` setting (`CONFIG GET databases`), or undefined when it does not answer within
 * {@link DATABASES_QUERY_MS} or refuses (managed services often disable CONFIG).
 */
async function serverDatabases(connection: Redis): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const query = connection.config('GET', 'databases').then(
    (reply: unknown) => {
      // `[name, value]` in RESP2; a map (an object or a Map) in RESP3, depending on ioredis's reply mapping.
      const raw = Array.isArray(reply) ? reply[1] : reply instanceof Map ? reply.get('databases') : (reply as Record<string, unknown> | null)?.databases;
      const value = Number(raw);
      return Number.isInteger(value) && value > 0 ? value : undefined;
    },
    () => undefined,
  );
  try {
    return await Promise.race([query, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), DATABASES_QUERY_MS)))]);
  } finally {
    clearTimeout(timer);
  }
}
