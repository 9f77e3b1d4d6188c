import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { errorMessage } from '@monorag/shared';
import { sendError } from './http-error.js';

/** Largest request body the gateway reads, in bytes (1 MB; a search body is a few hundred bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Parses `application/json` bodies of up to {@link MAX_BODY_BYTES} that are an object or an array (express.json, strict). */
export function jsonBody(): RequestHandler {
  return express.json({ limit: MAX_BODY_BYTES });
}

/**
 * Refuses a request whose body is not declared JSON (no `Content-Type`, or `text/plain`, a form...):
 * 415 `UNSUPPORTED_MEDIA_TYPE` naming the type sent. Without it {@link jsonBody} leaves such a body
 * unread and the route would report every field as missing.
 */
export function requireJsonBody(): RequestHandler {
  return (req, res, next) => {
    if (req.is('application/json')) return next();
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
 * Error handler for {@link jsonBody}'s refusals: a body that is not JSON is 400 `INVALID_ARGUMENT`
 * ("not valid JSON"), JSON that is not an object (`null`, a number, a string) 400 `INVALID_ARGUMENT`
 * ("must be a JSON object"), a body over 1 MB 413 `PAYLOAD_TOO_LARGE`. Other errors go on.
 */
export function jsonBodyErrors(): ErrorRequestHandler {
  return (error: { type?: string; body?: unknown }, _req, res, next) => {
    if (error.type === 'entity.parse.failed') {
      if (isJsonScalar(error.body)) {
        return sendError(res, 400, 'INVALID_ARGUMENT', `The request body must be a JSON object, not ${String(error.body).trim().slice(0, 40)}; send a JSON object with Content-Type: application/json.`);
      }
      return sendError(res, 400, 'INVALID_ARGUMENT', `The request body is not valid JSON (${errorMessage(error)}); send a JSON object with Content-Type: application/json.`);
    }
    if (error.type === 'entity.too.large') return sendError(res, 413, 'PAYLOAD_TOO_LARGE', `The request body is over the gateway's limit of 1 MB (${MAX_BODY_BYTES} bytes); send a smaller one.`);
    next(error);
  };
}
