import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, isMonoragError, MonoragError } from '@monorag/shared';
import { createHttpEmbedder } from './http-embedder.js';

type Handler = (req: IncomingMessage, body: unknown, res: ServerResponse) => void;

interface TestServer {
  url: string;
  requests: { method: string; url: string; body: unknown }[];
}

let servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  servers = [];
});

async function startServer(handler: Handler): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body: unknown = raw ? JSON.parse(raw) : undefined;
      requests.push({ method: req.method!, url: req.url!, body });
      handler(req, body, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/** A well-behaved server with a 3-dimensional model; the vector of a text is [text length, 0, 0]. */
const goodHandler: Handler = (req, body, res) => {
  if (req.url === '/info') return json(res, 200, { model: 'test-model', dim: 3, maxSeqLength: 8 });
  const texts = (body as { texts: string[] }).texts;
  json(res, 200, { model: 'test-model', dim: 3, embeddings: texts.map((t) => [t.length, 0, 0]) });
};

async function failure(promise: Promise<unknown>): Promise<MonoragError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MonoragError);
  return error as MonoragError;
}

describe('createHttpEmbedder', () => {
  it('sends batches of batchSize in order and returns Float32Arrays', async () => {
    const server = await startServer(goodHandler);
    const embedder = createHttpEmbedder({ url: server.url, batchSize: 2 });
    const vectors = await embedder.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3, 4, 5]);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => (r.body as { texts: string[] }).texts)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
  });

  it('keeps order with several batches in flight', async () => {
    const server = await startServer((req, body, res) => {
      // Answer the first batch last, so completion order differs from request order.
      const texts = (body as { texts?: string[] } | undefined)?.texts;
      setTimeout(() => goodHandler(req, body, res), texts?.[0] === 'a' ? 50 : 0);
    });
    const vectors = await createHttpEmbedder({ url: server.url, batchSize: 1, concurrency: 3 }).embed(['a', 'bb', 'ccc']);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3]);
  });

  it('caches info() after the first success', async () => {
    const server = await startServer(goodHandler);
    const embedder = createHttpEmbedder({ url: server.url });
    expect(await embedder.info()).toEqual({ model: 'test-model', dim: 3, maxSeqLength: 8 });
    await embedder.info();
    await embedder.embed(['x']);
    expect(server.requests.filter((r) => r.url === '/info')).toHaveLength(1);
  });

  it('sends no request for an empty list', async () => {
    const server = await startServer(goodHandler);
    expect(await createHttpEmbedder({ url: server.url }).embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('retries 503 `retries` times, then fails with EMBEDDER_UNAVAILABLE naming the URL', async () => {
    const server = await startServer((_req, _body, res) => json(res, 503, { detail: 'overloaded' }));
    const error = await failure(createHttpEmbedder({ url: server.url, retries: 3, retryDelayMs: 5 }).embed(['a']));
    expect(error.code).toBe(ErrorCode.EMBEDDER_UNAVAILABLE);
    expect(server.requests).toHaveLength(4);
    expect(error.message).toContain(server.url);
    expect(error.message).toContain('failed 4 times');
    expect(error.message).toContain('HTTP 503: overloaded');
    expect(error.message).toContain('unset EMBEDDING_URL');
  });

  it('ends the unavailable message with the advice it was given (a managed server is no EMBEDDING_URL)', async () => {
    const server = await startServer((_req, _body, res) => json(res, 503, { detail: 'overloaded' }));
    const error = await failure(createHttpEmbedder({ url: server.url, retries: 0, unavailableAdvice: 'See /x/embedder.log.' }).embed(['a']));
    expect(error.message).toBe(`The embedding server at ${server.url} is unavailable: POST /embed (1 texts) failed once (last: HTTP 503: overloaded). See /x/embedder.log.`);
  });

  it('retries connections closed by the server, and succeeds when the server recovers', async () => {
    let calls = 0;
    const server = await startServer((req, body, res) => {
      calls++;
      if (calls <= 2) req.socket.destroy();
      else goodHandler(req, body, res);
    });
    const vectors = await createHttpEmbedder({ url: server.url, retries: 3, retryDelayMs: 5 }).embed(['abc']);
    expect(vectors[0]![0]).toBe(3);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
  });

  it('gives up on closed connections after 1 + retries attempts', async () => {
    const server = await startServer((req) => req.socket.destroy());
    const error = await failure(createHttpEmbedder({ url: server.url, retries: 2, retryDelayMs: 5 }).embed(['a']));
    expect(error.code).toBe(ErrorCode.EMBEDDER_UNAVAILABLE);
    expect(server.requests).toHaveLength(3);
    expect(error.message).toContain('failed 3 times');
  });

  it('fails fast on a refused connection', async () => {
    const server = await startServer(goodHandler);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const error = await failure(createHttpEmbedder({ url: server.url, retries: 1, retryDelayMs: 5 }).info());
    expect(error.code).toBe(ErrorCode.EMBEDDER_UNAVAILABLE);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('with retryRefused false, gives up on a refused connection after one attempt instead of after the retries', async () => {
    const server = await startServer(goodHandler);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const error = await failure(createHttpEmbedder({ url: server.url, retries: 3, retryDelayMs: 5, retryRefused: false }).embed(['a']));
    expect(error.code).toBe(ErrorCode.EMBEDDER_UNAVAILABLE);
    expect(error.message).toContain('failed once (last: ECONNREFUSED)');
    // The default retries it: four attempts.
    const retried = await failure(createHttpEmbedder({ url: server.url, retries: 3, retryDelayMs: 5 }).embed(['a']));
    expect(retried.message).toContain('failed 4 times (last: ECONNREFUSED)');
  });

  it('does not retry a 422, calls it EMBEDDER_REJECTED and surfaces the server message', async () => {
    const detail = 'texts[0] has 25000 characters, over the limit of 20000 characters per text';
    const server = await startServer((_req, _body, res) => json(res, 422, { detail }));
    const error = await failure(createHttpEmbedder({ url: server.url, retries: 3, retryDelayMs: 5 }).embed(['a']));
    expect(error.code).toBe(ErrorCode.EMBEDDER_REJECTED);
    expect(server.requests).toHaveLength(1);
    expect(error.message).toContain(`HTTP 422: ${detail}`);
  });

  it('times out a slow request after timeoutMs and retries it', async () => {
    const server = await startServer(() => undefined);
    const started = Date.now();
    const error = await failure(createHttpEmbedder({ url: server.url, timeoutMs: 100, retries: 1, retryDelayMs: 5 }).embed(['a']));
    expect(error.message).toContain('timed out');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
    for (const s of servers) s.closeAllConnections();
  });

  it('rejects a response with the wrong number of vectors or wrong dimension', async () => {
    const wrongCount = await startServer((req, body, res) =>
      req.url === '/info' ? goodHandler(req, body, res) : json(res, 200, { model: 'm', dim: 3, embeddings: [[1, 0, 0]] }),
    );
    const e1 = await failure(createHttpEmbedder({ url: wrongCount.url }).embed(['a', 'b']));
    expect(e1.message).toContain('1 embeddings for 2 texts');

    const wrongDim = await startServer((req, body, res) =>
      req.url === '/info' ? goodHandler(req, body, res) : json(res, 200, { model: 'm', dim: 2, embeddings: [[1, 0]] }),
    );
    const e2 = await failure(createHttpEmbedder({ url: wrongDim.url }).embed(['a']));
    expect(e2.message).toContain('2-dimensional vectors but /info says 3');
  });

  it('opens the circuit after consecutive failures: later calls fail at once without a request', async () => {
    const server = await startServer((_req, _body, res) => json(res, 503, { detail: 'model crashed' }));
    const embedder = createHttpEmbedder({
      url: server.url,
      retries: 1,
      retryDelayMs: 5,
      circuitBreaker: { failureThreshold: 3, coolDownMs: 60_000 },
    });
    const first = await failure(embedder.embed(['a']));
    expect(first.message).toContain('failed 2 times');
    const second = await failure(embedder.embed(['b']));
    expect(server.requests).toHaveLength(3);
    expect(second.code).toBe(ErrorCode.EMBEDDER_UNAVAILABLE);
    expect(second.message).toContain('circuit open');
    expect(second.message).toContain('last: HTTP 503: model crashed');
    const third = await failure(embedder.embed(['c']));
    expect(third.message).toContain('circuit open');
    expect(server.requests).toHaveLength(3);
  });

  it('probes after the cool-down and closes the circuit when the server is back', async () => {
    let healthy = false;
    const server = await startServer((req, body, res) => (healthy ? goodHandler(req, body, res) : req.socket.destroy()));
    const embedder = createHttpEmbedder({ url: server.url, retries: 0, circuitBreaker: { failureThreshold: 1, coolDownMs: 200 } });
    await failure(embedder.embed(['a']));
    expect((await failure(embedder.embed(['a']))).message).toContain('circuit open');
    healthy = true;
    await new Promise((resolve) => setTimeout(resolve, 250));
    const vectors = await embedder.embed(['abcd']);
    expect(vectors[0]![0]).toBe(4);
  });

  it('probe() sends only GET /health; a healthy answer ends the cool-down, so the next call is admitted at once as the trial', async () => {
    let up = false;
    const server = await startServer((req, body, res) => {
      if (!up) return json(res, 502, { detail: 'no upstream' }); // a proxy whose server is gone
      if (req.url === '/health') return json(res, 200, { status: 'ok' });
      goodHandler(req, body, res);
    });
    const embedder = createHttpEmbedder({ url: server.url, retries: 0, circuitBreaker: { failureThreshold: 1, coolDownMs: 60_000 } });
    await failure(embedder.embed(['a']));
    expect(await embedder.probe!()).toBe(false);
    expect((await failure(embedder.embed(['a']))).message).toContain('circuit open');
    up = true;
    expect(await embedder.probe!()).toBe(true);
    expect((await embedder.embed(['abcd']))[0]![0]).toBe(4);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /embed', 'GET /health', 'GET /health', 'POST /embed', 'GET /info']);
  });

  it('probe() answers false, never rejecting, for a refused connection or a health check slower than probeTimeoutMs', async () => {
    const hung = await startServer(() => {
      // never answers
    });
    const started = Date.now();
    expect(await createHttpEmbedder({ url: hung.url, probeTimeoutMs: 100 }).probe!()).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    const gone = await startServer(goodHandler);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await createHttpEmbedder({ url: gone.url }).probe!()).toBe(false);
  });

  it('a 4xx answer does not count against the circuit', async () => {
    const server = await startServer((_req, _body, res) => json(res, 422, { detail: 'bad' }));
    const embedder = createHttpEmbedder({ url: server.url, circuitBreaker: { failureThreshold: 1 } });
    for (let i = 0; i < 3; i++) expect((await failure(embedder.embed(['a']))).code).toBe(ErrorCode.EMBEDDER_REJECTED);
    expect(server.requests).toHaveLength(3);
  });

  it('keeps at most `concurrency` requests in flight across parallel embed calls', async () => {
    let inFlight = 0;
    let peak = 0;
    const server = await startServer((req, body, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        goodHandler(req, body, res);
      }, 20);
    });
    const embedder = createHttpEmbedder({ url: server.url, batchSize: 1, concurrency: 2 });
    await embedder.info();
    const [a, b] = await Promise.all([embedder.embed(['a', 'bb', 'ccc']), embedder.embed(['dddd', 'eeeee'])]);
    expect(a.map((v) => v[0])).toEqual([1, 2, 3]);
    expect(b.map((v) => v[0])).toEqual([4, 5]);
    expect(peak).toBe(2);
  });

  it('checks the server against the index identity and says how to re-index', async () => {
    const server = await startServer(goodHandler);
    const embedder = createHttpEmbedder({
      url: server.url,
      expected: { model: 'sentence-transformers/all-MiniLM-L6-v2', dim: 384, reindexCommand: 'monorag index --rebuild /src/app' },
    });
    const error = await failure(embedder.embed(['a']));
    expect(error.code).toBe(ErrorCode.INDEX_IDENTITY_MISMATCH);
    expect(error.message).toContain('built with sentence-transformers/all-MiniLM-L6-v2 (384 dims)');
    expect(error.message).toContain(`at ${server.url} runs test-model (3 dims)`);
    expect(error.message).toContain('`monorag index --rebuild /src/app`');
    const fine = createHttpEmbedder({ url: server.url, expected: { model: 'test-model', dim: 3 } });
    expect(await fine.embed(['ab'])).toHaveLength(1);
  });

  it('refuses vectors from a replica that runs another model than /info reported', async () => {
    const server = await startServer((req, body, res) =>
      req.url === '/info' ? goodHandler(req, body, res) : json(res, 200, { model: 'other-model', dim: 3, embeddings: [[1, 0, 0]] }),
    );
    const error = await failure(createHttpEmbedder({ url: server.url }).embed(['a']));
    expect(error.code).toBe(ErrorCode.INDEX_IDENTITY_MISMATCH);
    expect(error.message).toContain('runs other-model');
  });

  it('fetches the WordPiece vocabulary once, and gives undefined on 404 or for another tokenizer', async () => {
    const tokens = ['[PAD]', '[UNK]', 'parse', '##r'];
    const server = await startServer((req, _body, res) => json(res, 200, { model: 'test-model', tokenizer: 'bert-wordpiece-uncased', tokens }));
    const embedder = createHttpEmbedder({ url: server.url });
    expect(await embedder.vocabulary?.()).toEqual(tokens);
    expect(await embedder.vocabulary?.()).toEqual(tokens);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /vocab']);

    const missing = await startServer((_req, _body, res) => json(res, 404, { detail: 'Not Found' }));
    expect(await createHttpEmbedder({ url: missing.url }).vocabulary?.()).toBeUndefined();
    const other = await startServer((_req, _body, res) => json(res, 200, { model: 'm', tokenizer: 'sentencepiece', tokens: ['a'] }));
    expect(await createHttpEmbedder({ url: other.url }).vocabulary?.()).toBeUndefined();
  });

  it('rejects a /vocab answer without a token list, naming the URL', async () => {
    const server = await startServer((_req, _body, res) => json(res, 200, { tokens: [1, 2] }));
    const error = await failure(createHttpEmbedder({ url: server.url }).vocabulary!());
    expect(error.code).toBe(ErrorCode.EMBEDDER_UNAVAILABLE);
    expect(error.message).toContain(`${server.url}/vocab answered`);
  });

  it('rejects bad options naming the option', () => {
    const make = (options: Parameters<typeof createHttpEmbedder>[0]): unknown => {
      try {
        return createHttpEmbedder(options);
      } catch (error) {
        return error;
      }
    };
    const badUrl = make({ url: 'localhost:8765' });
    expect(isMonoragError(badUrl, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    expect((badUrl as Error).message).toContain('EMBEDDING_URL');
    expect((make({ url: 'http://x', batchSize: 0 }) as Error).message).toContain('batchSize must be an integer >= 1');
    expect((make({ url: 'http://x', retries: -1 }) as Error).message).toContain('retries must be an integer >= 0');
  });
});
