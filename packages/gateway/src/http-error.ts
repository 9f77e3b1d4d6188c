import type { Response } from 'express';
import { errorMessage, ErrorCode, isMonoragError } from '@monorag/shared';
import type { z } from 'zod';

/**
 * Codes of the gateway's JSON errors: every `ErrorCode` of monorag, plus the refusals of the HTTP layer.
 * Stable: a client may branch on them.
 */
export type HttpErrorCode =
  | ErrorCode
  /** No or a wrong bearer token (401). */
  | 'UNAUTHORIZED'
  /** The client (its token, else its IP address) sent too many requests in the window (429). */
  | 'RATE_LIMITED'
  /** No route answers this method and path (404). */
  | 'ROUTE_NOT_FOUND'
  /** The cap on open MCP sessions is reached (503). */
  | 'TOO_MANY_SESSIONS'
  /** On a loopback bind, the `Host` header names something else than a loopback address (403; DNS rebinding protection). */
  | 'HOST_NOT_ALLOWED'
  /** The request body is over the 1 MB limit (413). */
  | 'PAYLOAD_TOO_LARGE'
  /**
   * A body-carrying REST request without `Content-Type: application/json`, with a charset other than
   * UTF-8, or with a `Content-Encoding` the gateway cannot decompress (415).
   */
  | 'UNSUPPORTED_MEDIA_TYPE'
  /** A failure that is not a MonoragError: a defect (500). */
  | 'INTERNAL';

/** The body of every error response: `{"error": {"code", "message", "field"?}}`. */
export interface HttpErrorBody {
  error: { code: HttpErrorCode; message: string; field?: string };
}

/** HTTP status of each monorag error code (one table; the MCP tools turn the same errors into `isError` results). */
const STATUS_OF: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  PATH_OUTSIDE_PROJECT: 403,
  PATH_IGNORED: 403,
  NOT_FOUND: 404,
  INDEX_NOT_FOUND: 503,
  INDEX_IDENTITY_MISMATCH: 409,
  EMBEDDER_UNAVAILABLE: 503,
  EMBEDDER_REJECTED: 502,
  CONFIG_INVALID: 500,
  STORE_FAILED: 503,
  FILE_UNREADABLE: 422,
  QUEUE_UNAVAILABLE: 503,
  SHUTTING_DOWN: 503,
  RUN_INTERRUPTED: 503,
};

/** Writes `{"error": {code, message, field?}}` with `status`. */
export function sendError(res: Response, status: number, code: HttpErrorCode, message: string, field?: string): void {
  const body: HttpErrorBody = { error: { code, message, ...(field === undefined ? {} : { field }) } };
  res.status(status).json(body);
}

/**
 * Answers a thrown error: a MonoragError with its code's status (400 for a bad argument, 403 for a path
 * outside the project or a file the index leaves out, 503 when the index, store or embedder is unavailable, ...) and
 * its message, naming in `field` the request field that was being resolved when given, else the error's
 * `argument` (e.g. `startLine` past the end of the file); anything else as 500 `INTERNAL` with a one-line
 * message (no stack trace).
 */
export function sendThrown(res: Response, error: unknown, field?: string): void {
  if (isMonoragError(error)) sendError(res, STATUS_OF[error.code], error.code, error.message, field ?? error.argument);
  else sendError(res, 500, 'INTERNAL', `Internal error: ${errorMessage(error)}`);
}

/**
 * Answers a failed zod validation with 400 `INVALID_ARGUMENT`, naming the first field at fault (dotted
 * path, e.g. `limit`) and what to send instead, e.g. `Field "limit": Too big: expected number to be <=50.`.
 */
export function sendValidationError(res: Response, error: z.ZodError, hint: string): void {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  const unknownKeys = issue?.code === 'unrecognized_keys' ? issue.keys : [];
  const name = unknownKeys.length > 0 ? unknownKeys.join(', ') : field;
  const what = unknownKeys.length > 0 ? 'is not a known field' : (issue?.message ?? 'is invalid');
  const message = `${name === undefined ? 'Request' : `Field "${name}"`}: ${what}. ${hint}`;
  sendError(res, 400, ErrorCode.INVALID_ARGUMENT, message, name);
}
