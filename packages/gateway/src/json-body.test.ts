import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import type { Logger } from '@monorag/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBodyErrors } from './json-body.js';
import { rawRequest, serveTestGateway, type TestGateway } from './test-gateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await serveTestGateway();
});

afterAll(async () => {
  await gateway.close();
});

const HINT = 'Send a JSON object {"query": string, "limit"?: 1-50, "mode"?: "hybrid" | "lexical" | "dense", "path"?: string, "language"?: string} with Content-Type: application/json.';

/** POST /v1/search with exactly these headers and body. */
function search(headers: readonly string[], body: string | Buffer = ''): Promise<{ status: number; body: unknown }> {
  return rawRequest(gateway.url, 'POST /v1/search HTTP/1.1', headers, body);
}

describe('jsonBodyErrors: body-parser refusals are client errors', () => {
  const json = '{"query": "slug"}';

  it.each([
    [
      'a charset other than UTF-8',
      ['Content-Type: application/json; charset=latin1', `Content-Length: ${json.length}`],
      json,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'The request body\'s charset "latin1" (Content-Type: application/json; charset=latin1) is not supported; send the JSON in UTF-8 with Content-Type: application/json (or application/json; charset=utf-8).',
    ],
    [
      'a plain body labelled Content-Encoding: br',
      ['Content-Type: application/json', 'Content-Encoding: br', `Content-Length: ${json.length}`],
      json,
      400,
      'INVALID_ARGUMENT',
      'The request body is not valid br data as its Content-Encoding header says (Decompression failed); send it compressed with br, or uncompressed without a Content-Encoding header.',
    ],
    [
      'an unknown Content-Encoding',
      ['Content-Type: application/json', 'Content-Encoding: lzma', `Content-Length: ${json.length}`],
      json,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Content-Encoding: lzma is not supported; send the body uncompressed without a Content-Encoding header, or compressed with Content-Encoding: gzip, deflate or br.',
    ],
  ])('answers %s with its 4xx, naming the header and what to send, and logs it at warn', async (_what, headers, body, status, code, message) => {
    const before = gateway.logs.length;
    expect(await search(headers, body)).toEqual({ status, body: { error: { code, message } } });
    const logged = gateway.logs.slice(before).filter((l) => l.level === 'warn' || l.level === 'error');
    expect(logged).toEqual([{ level: 'warn', fields: expect.objectContaining({ method: 'POST', path: '/v1/search', status }), msg: 'request body refused' }]);
  });

  it('still reads a gzip body', async () => {
    const gzipped = gzipSync(json);
    expect(await search(['Content-Type: application/json', 'Content-Encoding: gzip', `Content-Length: ${gzipped.length}`], gzipped)).toMatchObject({ status: 200 });
  });

  /** An error as http-errors builds them for body-parser: an Error with `status`, `expose`, `type` and details. */
  function httpError(message: string, props: Record<string, unknown>): Error {
    return Object.assign(new Error(message), props);
  }

  /** Calls the handler as Express would after body-parser refused a body with `error`; resolves with what it answered or passed on. */
  function handle(error: object): { status?: number; body?: unknown; passed?: unknown; warned: number } {
    const answer: { status?: number; body?: unknown; passed?: unknown; warned: number } = { warned: 0 };
    const res = {
      headersSent: false,
      status(code: number) {
        answer.status = code;
        return this;
      },
      json(body: unknown) {
        answer.body = body;
        return this;
      },
    } as unknown as Response;
    const req = { method: 'POST', path: '/v1/search', headers: { 'content-type': 'application/json' } } as unknown as Request;
    const logger = { warn: () => void answer.warned++ } as unknown as Logger;
    void jsonBodyErrors(logger)(error, req, res, (passed: unknown) => void (answer.passed = passed));
    return answer;
  }

  it.each([
    [
      httpError('request aborted', { status: 400, expose: true, type: 'request.aborted', expected: 100, received: 40 }),
      400,
      'INVALID_ARGUMENT',
      'The request body stopped after 40 of the 100 bytes its Content-Length announced (the client aborted it); send the whole body.',
    ],
    [
      httpError('request size did not match content length', { status: 400, expose: true, type: 'request.size.invalid', expected: 100, received: 40 }),
      400,
      'INVALID_ARGUMENT',
      'The request body has 40 bytes but its Content-Length header says 100; send a Content-Length equal to the body\'s size in bytes.',
    ],
    [
      httpError('invalid signature', { status: 403, expose: true, type: 'entity.verify.failed' }),
      403,
      'INVALID_ARGUMENT',
      'The request was refused (invalid signature); send a JSON object with Content-Type: application/json.',
    ],
  ])('maps %o to %i %s, logged at warn', (error, status, code, message) => {
    expect(handle(error)).toEqual({ status, body: { error: { code, message } }, warned: 1 });
  });

  it('passes body-parser\'s own failures (5xx) and other errors on to the 500 handler', () => {
    const serverSide = httpError('stream encoding should not be set', { status: 500, expose: false, type: 'stream.encoding.set' });
    expect(handle(serverSide)).toEqual({ passed: serverSide, warned: 0 });
    const bug = new TypeError('x is undefined');
    expect(handle(bug)).toEqual({ passed: bug, warned: 0 });
  });
});

describe('POST /v1/search with an empty body', () => {
  it.each([
    ['without Content-Length', ['Content-Type: application/json']],
    ['with Content-Length: 0', ['Content-Type: application/json', 'Content-Length: 0']],
    ['without Content-Type', []],
  ])('answers 400 saying the body is empty and what to send (%s)', async (_what, headers) => {
    expect(await search(headers)).toEqual({ status: 400, body: { error: { code: 'INVALID_ARGUMENT', message: `The request body is empty. ${HINT}` } } });
  });

  it('still answers 415 for a non-empty body not sent as JSON', async () => {
    expect(await search(['Content-Type: text/plain', 'Content-Length: 2'], '{}')).toEqual({
      status: 415,
      body: { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be JSON sent with Content-Type: application/json; this request has Content-Type: text/plain.' } },
    });
  });
});
