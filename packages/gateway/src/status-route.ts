import type { RequestHandler } from 'express';
import { sendThrown } from './http-error.js';

/**
 * `GET /v1/status`: the index's status as `monorag status --json` prints it (`readStatus` builds it:
 * root, index file, identity, freshness, line-window fallbacks).
 */
export function createStatusHandler(readStatus: () => Promise<unknown>): RequestHandler {
  return async (_req, res) => {
    try {
      res.json(await readStatus());
    } catch (error) {
      sendThrown(res, error);
    }
  };
}
