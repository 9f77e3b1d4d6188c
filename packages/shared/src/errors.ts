/**
 * Stable error codes. Each code's meaning never changes once released; new failures get new codes.
 */
export const ErrorCode = {
  /** A command-line or tool argument is invalid; the message names it. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** A path is outside the project root (`..`, absolute, or through a symlink). */
  PATH_OUTSIDE_PROJECT: 'PATH_OUTSIDE_PROJECT',
  /**
   * A file inside the project that the index leaves out on purpose, so it is not served: excluded by the
   * ignore rules (`.gitignore`, `.monoragignore`, `.git/info/exclude`, monorag's defaults for secrets,
   * `.git` and dependencies) or holding a private key.
   */
  PATH_IGNORED: 'PATH_IGNORED',
  /** A file or directory does not exist. */
  NOT_FOUND: 'NOT_FOUND',
  /** No index exists for the project yet. */
  INDEX_NOT_FOUND: 'INDEX_NOT_FOUND',
  /** The index was built with another model, dimension or chunker version. */
  INDEX_IDENTITY_MISMATCH: 'INDEX_IDENTITY_MISMATCH',
  /** The embedding service failed or is unreachable. */
  EMBEDDER_UNAVAILABLE: 'EMBEDDER_UNAVAILABLE',
  /**
   * The embedding service answered a request with a 4xx status: the server at that URL is not a
   * (compatible) monorag embedding server, or it refused the input. A runtime failure, not a bad argument.
   */
  EMBEDDER_REJECTED: 'EMBEDDER_REJECTED',
  /** The configuration (file or environment) is invalid. */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** The store could not be opened or written. */
  STORE_FAILED: 'STORE_FAILED',
  /** A file could not be read. */
  FILE_UNREADABLE: 'FILE_UNREADABLE',
  /** The Redis server of the BullMQ queue (REDIS_URL) could not be reached in time, or refused the connection (credentials, database). */
  QUEUE_UNAVAILABLE: 'QUEUE_UNAVAILABLE',
  /** The server is shutting down (SIGTERM/SIGINT): the request was cut short and not completed. */
  SHUTTING_DOWN: 'SHUTTING_DOWN',
  /**
   * An index run was stopped by its caller between two files or two embedding slices (newer changes
   * took priority); the files it wrote and the vectors it embedded stay, and the next run goes on.
   */
  RUN_INTERRUPTED: 'RUN_INTERRUPTED',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The one error class of monorag. `message` is written for the user: it names the file or argument
 * at fault and says what to do. `code` is stable and machine-readable.
 */
export class MonoragError extends Error {
  readonly code: ErrorCode;
  /**
   * The argument at fault when the error is about one (e.g. `startLine`, `path`), as its message names
   * it: the HTTP gateway answers it as the error's `field`.
   */
  readonly argument?: string;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; argument?: string }) {
    super(message, options);
    this.name = 'MonoragError';
    this.code = code;
    if (options?.argument !== undefined) this.argument = options.argument;
  }
}

/** True when `error` is a MonoragError, optionally with the given code. */
export function isMonoragError(error: unknown, code?: ErrorCode): error is MonoragError {
  return error instanceof MonoragError && (code === undefined || error.code === code);
}

/** A one-line user-facing message for any thrown value; never a stack trace. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
