import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. */
  level?: string;
  /** Destination file descriptor; always stderr (2) by default, since stdout belongs to JSON-RPC in stdio mode. */
  fd?: number;
}

/** A pino logger writing JSON lines to stderr. */
export function createLogger({ level = 'info', fd = 2 }: LoggerOptions = {}): Logger {
  return pino({ level, base: { name: 'monorag' } }, pino.destination({ fd, sync: true }));
}
