import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeEmbedder } from '@monorag/embedder-client';

/** A running HTTP embedding server backed by the TS fake embedder. */
export interface FakeEmbeddingHttp {
  url: string;
  /** Texts embedded so far. */
  texts(): number;
  stop(): Promise<void>;
}

/** Options of {@link startFakeEmbeddingHttp}. */
export interface FakeEmbeddingHttpOptions {
  /** Wait this long before answering each `POST /embed`, in ms (a slow model, so that an index run lasts). Default 0. */
  delayMs?: number;
}

/**
 * Serves the embedding server's API (`GET /info`, `GET /health`, `POST /embed`) with the deterministic
 * fake embedder (hashed bag of words, 384 dims), so worker processes can share one embedder over HTTP
 * in tests that are not about meaning (the real model runs ~20 chunks/s on 2 cores).
 */
export async function startFakeEmbeddingHttp(model = 'fake-hash-embedder', { delayMs = 0 }: FakeEmbeddingHttpOptions = {}): Promise<FakeEmbeddingHttp> {
  const embedder = createFakeEmbedder({ dim: 384, model });
  let count = 0;
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/info') return send(200, { model, dim: 384, maxSeqLength: 256 });
    if (req.method === 'GET' && req.url === '/health') return send(200, { status: 'ok' });
    if (req.method !== 'POST' || req.url !== '/embed') return send(404, { detail: 'not found' });
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const { texts } = JSON.parse(Buffer.concat(parts).toString('utf8')) as { texts: string[] };
      count += texts.length;
      const delayed = new Promise<void>((resolve) => setTimeout(resolve, delayMs));
      delayed.then(() => embedder.embed(texts)).then(
        (vectors) => send(200, { embeddings: vectors.map((v) => Array.from(v)), model, dim: 384 }),
        (error: Error) => send(422, { detail: error.message }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    texts: () => count,
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
