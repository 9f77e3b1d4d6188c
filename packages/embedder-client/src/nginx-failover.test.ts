import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  metricValue,
  startEmbeddingServer,
  startNginx,
  type EmbeddingServerProcess,
  type NginxProcess,
} from './embedding-cluster.js';
import { createHttpEmbedder } from './http-embedder.js';

/**
 * The team stack's failover, with real processes: nginx (from apt, config from nginx/) in front of
 * two embedding servers. The servers run the fake model (`--model-impl fake`): this test is about
 * routing, failover and rejoining, not meaning, and two copies of the real model would compete for
 * this machine's two cores with the other test files. The fake model takes 20 ms per forward call
 * (EMBEDDING_FAKE_DELAY_MS) so that the kill can land on a request in flight.
 */

const EMBED_OK = 'embedding_requests_total{endpoint="/embed",status="200"}';
const TEXTS = ['parse the HTTP headers', 'open a TCP connection', 'bake bread', 'read the config file', 'retry with backoff'];
const SERVER_ENV = { ...process.env, EMBEDDING_FAKE_DELAY_MS: '20' };

async function embedCount(server: EmbeddingServerProcess): Promise<number> {
  return metricValue(await (await fetch(`${server.url}/metrics`)).text(), EMBED_OK);
}

let servers: EmbeddingServerProcess[] = [];
let nginx: NginxProcess | undefined;

beforeAll(async () => {
  servers = await Promise.all([startEmbeddingServer({ env: SERVER_ENV }), startEmbeddingServer({ env: SERVER_ENV })]);
  nginx = await startNginx(servers.map((s) => s.port));
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(servers.map((s) => s.kill()));
});

describe('nginx in front of two embedding servers', () => {
  it('answers every request while one server is killed, and sends it traffic again after its restart', async () => {
    const embedder = createHttpEmbedder({ url: nginx!.url, retries: 5, retryDelayMs: 100, timeoutMs: 30_000 });
    const expected = await createHttpEmbedder({ url: servers[1]!.url }).embed(TEXTS);
    const answered: number[] = [];
    const failures: unknown[] = [];
    let stop = false;
    let sent = 0;

    // A steady stream: two clients, each sending one request after the other.
    const client = async (id: number): Promise<void> => {
      while (!stop) {
        const i = sent++ % TEXTS.length;
        try {
          const [vector] = await embedder.embed([TEXTS[i]!]);
          expect(Array.from(vector!)).toEqual(Array.from(expected[i]!));
          answered.push(id);
        } catch (error) {
          failures.push(error);
        }
      }
    };
    const stream = Promise.all([client(0), client(1)]);

    // Phase 1: both servers serve.
    await sleep(1500);
    const before = await Promise.all(servers.map(embedCount));
    expect(before[0]).toBeGreaterThan(0);
    expect(before[1]).toBeGreaterThan(0);

    // Phase 2: server 0 dies (SIGKILL, mid-stream); nginx resends to server 1.
    const deadPort = servers[0]!.port;
    await servers[0]!.kill();
    const atKill = answered.length;
    await sleep(3000);
    expect(answered.length).toBeGreaterThan(atKill + 10);

    // Phase 3: server 0 comes back on the same port; nginx tries it again after fail_timeout (10 s).
    servers[0] = await startEmbeddingServer({ port: deadPort, env: SERVER_ENV });
    const deadline = Date.now() + 60_000;
    let rejoined = 0;
    while (rejoined < 5 && Date.now() < deadline) {
      await sleep(500);
      rejoined = await embedCount(servers[0]!);
    }
    stop = true;
    await stream;

    expect(failures).toEqual([]);
    expect(rejoined).toBeGreaterThanOrEqual(5);
    expect(answered.length).toBe(sent);
  }, 120_000);

  it('passes /health through and answers a body over the limit with 413', async () => {
    const health = await fetch(`${nginx!.url}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const big = await fetch(`${nginx!.url}/embed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ texts: ['x'.repeat(17 * 1024 * 1024)] }),
    });
    expect(big.status).toBe(413);
    // Another method on /embed: JSON like every other error, not nginx's HTML 403 (a trial).
    const get = await fetch(`${nginx!.url}/embed`);
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ detail: 'POST a JSON body to this route' });
  });

  it('passes /vocab through to a replica, so chunks are sized by the model\'s word pieces behind nginx too (a review: nginx answered it 404 itself)', async () => {
    // The replicas here run the fake model, which has no WordPiece vocabulary: the replica's own answer must come back.
    const direct = await fetch(`${servers[0]!.url}/vocab`);
    const proxied = await fetch(`${nginx!.url}/vocab`);
    expect(proxied.status).toBe(direct.status);
    const body = (await proxied.json()) as { detail: string };
    expect(body).toEqual(await direct.json());
    expect(body.detail).toMatch(/has no uncased BERT WordPiece vocabulary/);
  });
});
