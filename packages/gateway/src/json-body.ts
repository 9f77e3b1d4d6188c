import zlib from 'node:zlib';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { errorMessage, type Logger } from '@monorag/shared';
import { sendError, type HttpErrorCode } from './http-error.js';

/** Largest request body the gateway reads, in bytes (1 MB; a search body is a few hundred bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The `Content-Encoding`s express.json decompresses (zstd only where node:zlib has it). */
const ENCODINGS = 'createZstdDecompress' in zlib ? 'gzip, deflate, br or zstd' : 'gzip, deflate or br';

/** Parses `application/json` bodies of up to {@link MAX_BODY_BYTES} that are an object or an array (express.json, strict). */
export function jsonBody(): RequestHandler {
  return express.json({ limit: MAX_BODY_BYTES });
}

/**
 * True when the request carries no body bytes by its headers: neither `Content-Length` nor
 * `Transfer-Encoding`, or `Content-Length: 0`. express.json leaves the former unread and parses the
 * latter as `{}`, so a route would report every field as missing instead of the body.
 */
export function isEmptyBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0);
}

/**
 * Refuses a request whose body is not declared JSON (no `Content-Type`, or `text/plain`, a form...):
 * 415 `UNSUPPORTED_MEDIA_TYPE` naming the type sent. Without it {@link jsonBody} leaves such a body
 * unread and the route would report every field as missing. A request without a body goes on to the
 * route, which says the body is empty and what to send ({@link isEmptyBody}).
 */
export function requireJsonBody(): RequestHandler {
  return (req, res, next) => {
    if (isEmptyBody(req) || req.is('application/json')) return next();
    const sent = req.headers['content-type'];
    sendError(
      res,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body must be JSON sent with Content-Type: application/json; this request has ${sent ? `Content-Type: ${sent}` : 'no Content-Type'}.`,
    );
  };
}

/** True when `text` is JSON, just not an object or array (`null`, `3`, `"x"`): strict parsing refuses it. */
function isJsonScalar(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    const value: unknown = JSON.parse(text);
    return value === null || typeof value !== 'object';
  } catch {
    // Not JSON at all: the caller says so.
    return false;
  }
}

/**
 * What express.json (body-parser, raw-body) passes on when it refuses a body: an http-errors error with
 * the status to answer, `expose` for client errors, and a `type` naming the refusal (none for a body
 * that fails to decompress), plus the details of that refusal.
 */
export interface BodyParserError {
  message: string;
  status?: number;
  expose?: boolean;
  type?: string;
  /** `entity.parse.failed`: the body's text. */
  body?: unknown;
  /** `charset.unsupported`: the charset of the `Content-Type`. */
  charset?: string;
  /** `encoding.unsupported`: the `Content-Encoding`. */
  encoding?: string;
  /** `request.aborted`, `request.size.invalid`: the `Content-Length`, and the bytes received. */
  expected?: number;
  received?: number;
}

/** A refusal of the body as answered: status, code and the message saying what to send instead. */
export interface BodyRefusal {
  status: number;
  code: HttpErrorCode;
  message: string;
}

/** The gateway's answer to a body-parser error that is the client's doing, or undefined for a server-side one (5xx). */
export function bodyRefusal(error: BodyParserError, req: Request): BodyRefusal | undefined {
  const contentType = req.headers['content-type'] ?? '';
  const contentEncoding = req.headers['content-encoding'];
  const json = 'send a JSON object with Content-Type: application/json';
  switch (error.type) {
    case 'entity.parse.failed':
      return isJsonScalar(error.body)
        ? { status: 400, code: 'INVALID_ARGUMENT', message: `The request body must be a JSON object, not ${String(error.body).trim().slice(0, 40)}; ${json}.` }
        : { status: 400, code: 'INVALID_ARGUMENT', message: `The request body is not valid JSON (${errorMessage(error)}); ${json}.` };
    case 'entity.too.large':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: `The request body is over the gateway's limit of 1 MB (${MAX_BODY_BYTES} bytes); send a smaller one.` };
    case 'charset.unsupported':
      return {
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: `The request body's charset "${error.charset ?? ''}" (Content-Type: ${contentType}) is not supported; send the JSON in UTF-8 with Content-Type: application/json (or application/json; charset=utf-8).`,
      };
    case 'encoding.unsupported':
      return {
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: `Content-Encoding: ${error.encoding ?? contentEncoding ?? ''} is not supported; send the body uncompressed without a Content-Encoding header, or compressed with Content-Encoding: ${ENCODINGS}.`,
      };
    case 'request.aborted':
      return {
        status: 400,
        code: 'INVALID_ARGUMENT',
        message: `The request body stopped after ${error.received ?? 0} of the ${error.expected ?? 0} bytes its Content-Length announced (the client aborted it); send the whole body.`,
      };
    case 'request.size.invalid':
      return {
        status: 400,
        code: 'INVALID_ARGUMENT',
        message: `The request body has ${error.received ?? 0} bytes but its Content-Length header says ${error.expected ?? 0}; send a Content-Length equal to the body's size in bytes.`,
      };
  }
  const status = error.status ?? 500;
  if (status < 400 || status >= 500 || error.expose === false) return undefined;
  if (error.type === undefined && contentEncoding !== undefined && contentEncoding.toLowerCase() !== 'identity') {
    // raw-body's 400 for a decompression stream that failed (zlib's message, no type).
    return {
      status: 400,
      code: 'INVALID_ARGUMENT',
      message: `The request body is not valid ${contentEncoding} data as its Content-Encoding header says (${errorMessage(error)}); send it compressed with ${contentEncoding}, or uncompressed without a Content-Encoding header.`,
    };
  }
  // Any other client error of body-parser (e.g. `entity.verify.failed`, a read that failed): its own status and message.
  const code: HttpErrorCode = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'INVALID_ARGUMENT';
  return { status, code, message: `The request was refused (${errorMessage(error)}); ${json}.` };
}

/**
 * Error handler for {@link jsonBody}'s refusals, which are the client's mistakes: each is answered with
 * its 4xx status and `{"error": {code, message}}`, the message naming the header or body at fault and
 * what to send, and logged at `warn` (never `error`). A body that is not JSON is 400 `INVALID_ARGUMENT`
 * ("not valid JSON"), JSON that is not an object (`null`, a number, a string) 400 ("must be a JSON
 * object"), a body over 1 MB 413 `PAYLOAD_TOO_LARGE`, a charset other than UTF-8 or an unsupported
 * `Content-Encoding` 415 `UNSUPPORTED_MEDIA_TYPE`, a body that does not decompress as its
 * `Content-Encoding` says, is cut short or does not match its `Content-Length` 400. Other errors (a
 * route's, or body-parser's own 5xx) go on.
 */
export function jsonBodyErrors(logger: Logger): ErrorRequestHandler {
  return (error: BodyParserError, req, res, next) => {
    const refusal = typeof error === 'object' && error !== null ? bodyRefusal(error, req) : undefined;
    if (refusal === undefined || res.headersSent) return next(error);
    logger.warn({ method: req.method, path: req.path, status: refusal.status, type: error.type, err: errorMessage(error) }, 'request body refused');
    sendError(res, refusal.status, refusal.code, refusal.message);
  };
}
