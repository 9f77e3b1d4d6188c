import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running {@link serveEmbeddings} server. */
export interface FakeEmbeddingServer {
  server: Server;
  port: number;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Texts embedded so far. */
  embedded: () => number;
}

/**
 * A minimal embedding server for tests (`/health`, `/info`, `POST /embed`) on a free loopback port. Every
 * text gets `vector` (default `[1, 0, 0, 0]`); `/info` names `model` (default `fake-4`) and the vector's length.
 */
export async function serveEmbeddings({ model = 'fake-4', vector = [1, 0, 0, 0] }: { model?: string; vector?: readonly number[] } = {}): Promise<FakeEmbeddingServer> {
  let embedded = 0;
  const dim = vector.length;
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/health') return send(200, { status: 'ok' });
    if (req.url === '/info') return send(200, { model, dim, maxSeqLength: 256 });
    if (req.method !== 'POST' || req.url !== '/embed') return send(404, { detail: 'not found' });
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const { texts } = JSON.parse(Buffer.concat(parts).toString('utf8')) as { texts: string[] };
      embedded += texts.length;
      send(200, { embeddings: texts.map(() => vector), model, dim });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, url: `http://127.0.0.1:${port}`, embedded: () => embedded };
}
