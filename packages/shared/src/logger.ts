import { pino, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

export type { Logger } from 'pino';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. */
  level?: string;
  /** Destination file descriptor; always stderr (2) by default, since stdout belongs to JSON-RPC in stdio mode. */
  fd?: number;
  /**
   * One readable line per record (`WARN: message key=value ...`, via pino-pretty) instead of JSON
   * lines: for a person at a terminal. Default false (JSON, for log collectors and pipes).
   */
  pretty?: boolean;
}

/** A pino logger writing to `fd` (stderr by default): JSON lines, or readable lines with `pretty`. */
export function createLogger({ level = 'info', fd = 2, pretty = false }: LoggerOptions = {}): Logger {
  const options = { level, base: { name: 'monorag' } };
  if (pretty) return pino(options, PinoPretty({ destination: fd, sync: true, ignore: 'pid,hostname,name,time', singleLine: true }));
  return pino(options, pino.destination({ fd, sync: true }));
}
