import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { TOKEN_INDEX } from './bearer-auth.js';
import { sendError } from './http-error.js';

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Requests per client per window. */
  max: number;
  /** Window length, in ms. */
  windowMs: number;
  /** Paths never limited (e.g. `/health`, polled by orchestrators). */
  open: readonly string[];
}

/**
 * Per-client fixed-window rate limit (express-rate-limit, in-memory store: one gateway process). A client
 * is its valid bearer token (set by `identifyClient`), else its IP address (an IPv6 /56 counts as one),
 * so requests with wrong tokens are limited per address. Past `max` it answers 429 `RATE_LIMITED` with
 * `Retry-After` and the draft-8 `RateLimit` headers.
 */
export function createRateLimiter({ max, windowMs, open }: RateLimiterOptions): RequestHandler {
  return rateLimit({
    windowMs,
    limit: max,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skip: (req) => open.includes(req.path),
    keyGenerator: (req, res) => {
      const token = res.locals[TOKEN_INDEX] as number | undefined;
      return token === undefined ? `ip:${ipKeyGenerator(req.ip ?? 'unknown')}` : `token:${token}`;
    },
    handler: (_req, res) => {
      sendError(res, 429, 'RATE_LIMITED', `Too many requests: at most ${max} per ${Math.ceil(windowMs / 1000)} s per client; retry after the seconds the Retry-After header gives.`);
    },
  });
}
