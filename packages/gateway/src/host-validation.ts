import type { Request, RequestHandler, Response } from 'express';
import { isLoopbackHost } from './bind-safety.js';
import { sendError } from './http-error.js';
import { sendJsonRpcError } from './json-rpc-error.js';

/** Options of {@link hostValidation}. */
export interface HostValidationOptions {
  /** Accept only loopback names in `Host` (`localhost`, `127.x.x.x`, `[::1]`): DNS rebinding protection on a loopback bind. */
  loopbackOnly: boolean;
}

/** The host name of a `Host` header value (no port, IPv6 without brackets), or undefined when it does not parse. */
function hostName(header: string): string | undefined {
  const url = `http://${header}`;
  return URL.canParse(url) ? new URL(url).hostname : undefined;
}

/**
 * Refuses a request by the gateway's error shapes: on `/mcp` a JSON-RPC error with no id (as the MCP
 * layer's other refusals there), elsewhere `{"error": {code, message}}`.
 */
function refuse(req: Request, res: Response, status: number, code: 'INVALID_ARGUMENT' | 'HOST_NOT_ALLOWED', message: string): void {
  if (req.path === '/mcp') sendJsonRpcError(res, status, -32000, `${code}: ${message}`);
  else sendError(res, status, code, message);
}

/**
 * Middleware checking the `Host` header: a request without one (or with an empty one) is 400
 * `INVALID_ARGUMENT`; with `loopbackOnly`, a `Host` naming anything but a loopback address is 403
 * `HOST_NOT_ALLOWED` (a web page that rebinds its DNS name to 127.0.0.1 cannot reach the gateway).
 * Replaces the MCP SDK's `localhostHostValidation`, whose JSON-RPC body would answer every route.
 */
export function hostValidation({ loopbackOnly }: HostValidationOptions): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.host?.trim() ?? '';
    if (header === '') return refuse(req, res, 400, 'INVALID_ARGUMENT', 'The request has no Host header; send one naming the gateway, e.g. "Host: 127.0.0.1:7700".');
    if (!loopbackOnly) return next();
    const name = hostName(header);
    if (name !== undefined && isLoopbackHost(name)) return next();
    refuse(req, res, 403, 'HOST_NOT_ALLOWED', `Host "${header}" is not a loopback name: this gateway listens on a loopback address and answers only requests addressed to localhost, 127.0.0.1 or [::1] (DNS rebinding protection).`);
  };
}
