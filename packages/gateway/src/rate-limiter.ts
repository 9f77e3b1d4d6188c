import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { TOKEN_INDEX } from './bearer-auth.js';
import { sendError } from './http-error.js';

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Requests per client per window. */
  max: number;
  /** Window length, in ms. */
  windowMs: number;
  /** Requests never limited nor counted (e.g. `/health`, polled by orchestrators; closing an MCP session). */
  exempt: (req: Request) => boolean;
}

/**
 * Per-client fixed-window rate limit (express-rate-limit, in-memory store: one gateway process). A client
 * is its valid bearer token (set by `identifyClient`), else its IP address (an IPv6 /56 counts as one),
 * so requests with wrong tokens are limited per address. Past `max` it answers 429 `RATE_LIMITED` with
 * `Retry-After` and the draft-8 `RateLimit` headers. Requests `exempt` says so are neither limited nor counted.
 */
export function createRateLimiter({ max, windowMs, exempt }: RateLimiterOptions): RequestHandler {
  return rateLimit({
    windowMs,
    limit: max,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skip: exempt,
    keyGenerator: (req, res) => {
      const token = res.locals[TOKEN_INDEX] as number | undefined;
      return token === undefined ? `ip:${ipKeyGenerator(req.ip ?? 'unknown')}` : `token:${token}`;
    },
    handler: (_req, res) => {
      sendError(res, 429, 'RATE_LIMITED', `Too many requests: at most ${max} per ${Math.ceil(windowMs / 1000)} s per client; retry after the seconds the Retry-After header gives.`);
    },
  });
}
