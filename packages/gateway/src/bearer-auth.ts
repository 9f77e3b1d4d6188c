import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { sendError } from './http-error.js';

/** The token in `Authorization: Bearer <token>` (scheme case-insensitive), or undefined when there is none. */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * Finds which of `tokens` equals `presented`, comparing SHA-256 digests with `timingSafeEqual` and
 * always against every token, so neither the position of the first differing byte nor the token's
 * length nor which token matched shows in the time taken.
 * @returns the matching token's index in `tokens`, or undefined.
 */
export function matchToken(presented: string, tokens: readonly string[]): number | undefined {
  const digest = createHash('sha256').update(presented).digest();
  let found: number | undefined;
  tokens.forEach((token, i) => {
    const equal = timingSafeEqual(digest, createHash('sha256').update(token).digest());
    if (equal && found === undefined) found = i;
  });
  return found;
}

/** Where {@link identifyClient} leaves who the client is: the index of its valid token, if any (in `res.locals`). */
export const TOKEN_INDEX = 'monoragTokenIndex';

/**
 * Middleware: records in `res.locals[TOKEN_INDEX]` which configured token the request carries (none
 * when it carries no valid one). It refuses nothing: the rate limiter keys on it, then {@link requireToken} refuses.
 */
export function identifyClient(tokens: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const presented = bearerToken(req);
    res.locals[TOKEN_INDEX] = presented === undefined || tokens.length === 0 ? undefined : matchToken(presented, tokens);
    next();
  };
}

/**
 * Middleware: when `tokens` is not empty, answers 401 `UNAUTHORIZED` (with `WWW-Authenticate: Bearer`)
 * to a request without a valid bearer token, except on the paths in `open` (e.g. `/health`).
 */
export function requireToken(tokens: readonly string[], open: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (tokens.length === 0 || open.includes(req.path) || res.locals[TOKEN_INDEX] !== undefined) return next();
    const presented = bearerToken(req) !== undefined;
    res.setHeader('WWW-Authenticate', `Bearer realm="monorag"${presented ? ', error="invalid_token"' : ''}`);
    sendError(
      res,
      401,
      'UNAUTHORIZED',
      presented
        ? 'The bearer token is not one of the gateway\'s tokens (gateway.tokens / MONORAG_GATEWAY_TOKEN); check it.'
        : 'This gateway needs a token: send the header "Authorization: Bearer <token>" with one of its tokens (gateway.tokens / MONORAG_GATEWAY_TOKEN).',
    );
  };
}
