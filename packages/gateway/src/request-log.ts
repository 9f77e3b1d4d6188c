import type { RequestHandler } from 'express';
import type { Logger } from '@monorag/shared';

/**
 * Middleware logging each finished request (method, path, status, ms): at `debug`, or `warn` for a 5xx
 * answer. Never logs headers or bodies (tokens and file contents stay out of the logs).
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const entry = { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(performance.now() - started) };
      if (res.statusCode >= 500) logger.warn(entry, 'request failed');
      else logger.debug(entry, 'request');
    });
    next();
  };
}
