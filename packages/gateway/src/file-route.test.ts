import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestGateway, type TestGateway } from './test-gateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await serveTestGateway();
});

afterAll(async () => {
  await gateway.close();
});

const HINT = 'Use GET /v1/file?path=<repo-relative path>[&startLine=N][&endLine=M] (lines 1-based, inclusive).';

async function file(query: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${gateway.url}/v1/file?${query}`);
  return { status: response.status, body: await response.json() };
}

/** A 400 `INVALID_ARGUMENT` naming `field`. */
function invalid(field: string, message: string): { status: number; body: unknown } {
  return { status: 400, body: { error: { code: 'INVALID_ARGUMENT', message, field } } };
}

describe('GET /v1/file: refusals name the field and say what is wrong', () => {
  it.each([
    ['path=a.ts&startLine=0', invalid('startLine', `Field "startLine": must be >= 1 (lines are 1-based); got 0. ${HINT}`)],
    ['path=a.ts&startLine=-1', invalid('startLine', `Field "startLine": must be >= 1 (lines are 1-based); got -1. ${HINT}`)],
    ['path=a.ts&endLine=1.5', invalid('endLine', `Field "endLine": must be a whole number >= 1 (lines are 1-based); got "1.5". ${HINT}`)],
    ['path=a.ts&startLine=two', invalid('startLine', `Field "startLine": must be a whole number >= 1 (lines are 1-based); got "two". ${HINT}`)],
    ['path=a.ts&startLine=1&startLine=2', invalid('startLine', `Field "startLine": must be given once, as a whole number >= 1 (lines are 1-based). ${HINT}`)],
    ['path=a.ts&startLine=4', invalid('startLine', 'Argument "startLine" (4) is past the end of a.ts, which has 3 lines.')],
    ['path=a.ts&startLine=3&endLine=2', invalid('endLine', 'Argument "endLine" (2) is before "startLine" (3); give an endLine >= startLine, or none.')],
    ['path=a.ts%00.txt', invalid('path', 'Argument "path" contains a NUL byte (\\0, %00 in a URL), which no file name can hold; send the path without it.')],
  ])('%s', async (query, expected) => {
    expect(await file(query)).toEqual(expected);
  });

  it('still reads the lines asked for', async () => {
    expect(await file('path=a.ts&startLine=2&endLine=3')).toMatchObject({ status: 200, body: { path: 'a.ts', startLine: 2, endLine: 3, totalLines: 3, text: 'const b = 2;\nconst c = 3;' } });
  });
});
