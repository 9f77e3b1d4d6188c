import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpEmbedder, type Embedder } from '@monorag/embedder-client';
import { ErrorCode, MonoragError, isMonoragError } from '@monorag/shared';
import { embedderOutageProbe } from './embedder-outage-probe.js';
import type { IndexReport } from './index-project.js';
import { createIndexScheduler, type IndexScheduler, type OutageProbe } from './index-scheduler.js';

function report(): IndexReport {
  return {
    files: 0, added: 0, changed: 0, deleted: 0, unchanged: 0, chunksWritten: 0, chunksEmbedded: 0, chunksFromCache: 0,
    totalChunks: 0, skipped: [], commit: null, durationMs: 0, mode: 'paths', cachePruned: 0, moved: 0,
    redacted: [], secrets: { files: 0, spans: 0, byRule: {} },
  };
}

/** How the test embedding server behaves: `up`, `gone` (a proxy whose server is gone: 502 to everything) or `broken` (health ok, embeddings 500). */
type Mode = 'up' | 'gone' | 'broken';

/** A small embedding server (the API of packages/embedding-server, 3-dim vectors) that counts requests by path. */
interface TestEmbeddingServer {
  url: string;
  mode: Mode;
  count(path: string): number;
  /** Stops listening (connections are refused), or listens again on the same port. */
  stop(): Promise<void>;
  restart(): Promise<void>;
}

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  vi.useRealTimers();
});

async function startEmbeddingServer(mode: Mode): Promise<TestEmbeddingServer> {
  const counts = new Map<string, number>();
  const state = { mode };
  const make = (): Server =>
    createServer((req, res) => {
      counts.set(req.url!, (counts.get(req.url!) ?? 0) + 1);
      const send = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        if (state.mode === 'gone') return send(502, { detail: 'bad gateway' });
        if (req.url === '/health') return send(200, { status: 'ok' });
        if (req.url === '/info') return send(200, { model: 'test-model', dim: 3, maxSeqLength: 8 });
        if (state.mode === 'broken') return send(500, { detail: 'model failed' });
        const { texts } = JSON.parse(raw) as { texts: string[] };
        send(200, { model: 'test-model', dim: 3, embeddings: texts.map((t) => [t.length, 0, 0]) });
      });
    });
  let server = make();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let listening = true;
  const stop = async (): Promise<void> => {
    if (!listening) return;
    listening = false;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  cleanups.push(stop);
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(next: Mode) {
      state.mode = next;
    },
    count: (path) => counts.get(path) ?? 0,
    stop,
    restart: async () => {
      server = make();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      listening = true;
    },
  };
}

/** A scheduler whose runs embed their paths with `embedder`, closed after the test. */
function embeddingScheduler(embedder: Embedder, options: { retryMs: number; intervalMs: number }): IndexScheduler {
  const scheduler = createIndexScheduler({
    debounceMs: 5,
    retryMs: options.retryMs,
    outage: embedderOutageProbe(embedder, { intervalMs: options.intervalMs }),
    run: async (paths) => {
      await embedder.embed(paths ?? ['everything']);
      return report();
    },
  });
  cleanups.push(() => scheduler.close());
  return scheduler;
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('createIndexScheduler during an embedder outage', () => {
  it('starts the failed run within a check interval of the server answering again, not after the backoff or the circuit cool-down', async () => {
    const server = await startEmbeddingServer('up');
    await server.stop(); // killed: connections are refused
    // Two failed requests open the circuit for 30 s; the backoff's first retry is due after 2 s.
    const embedder = createHttpEmbedder({ url: server.url, retries: 1, retryDelayMs: 10, circuitBreaker: { failureThreshold: 2, coolDownMs: 30_000 } });
    const scheduler = embeddingScheduler(embedder, { retryMs: 2_000, intervalMs: 100 });
    scheduler.enqueue(['a.ts']);
    await until(() => scheduler.status().lastError !== null, 2_000, 'the run to fail');
    expect(scheduler.status().lastError).toContain('ECONNREFUSED');
    await sleep(300);
    await server.restart();
    const back = Date.now();
    await until(() => scheduler.status().lastError === null && scheduler.status().runs === 2, 3_000, 'the run after the server came back');
    expect(Date.now() - back).toBeLessThan(1_000);
    expect(scheduler.status()).toMatchObject({ pendingPaths: 0, running: false });
    expect(server.count('/embed')).toBe(1);
  });

  it('sends no embedding request while the health check fails, though the backoff would have retried several times', async () => {
    const server = await startEmbeddingServer('gone');
    // No circuit in the way (a high threshold): only the scheduler decides when a request goes out.
    const embedder = createHttpEmbedder({ url: server.url, retries: 0, circuitBreaker: { failureThreshold: 1_000 } });
    const scheduler = embeddingScheduler(embedder, { retryMs: 50, intervalMs: 50 });
    scheduler.enqueue(['a.ts']);
    await until(() => scheduler.status().lastError !== null, 2_000, 'the run to fail');
    const embedsAtFailure = server.count('/embed');
    expect(embedsAtFailure).toBe(1);
    await sleep(600); // the backoff would have retried at 50, 150 and 350 ms after the failure
    expect(server.count('/embed')).toBe(embedsAtFailure);
    expect(server.count('/health')).toBeGreaterThanOrEqual(3);
    expect(scheduler.status().runs).toBe(1);
    server.mode = 'up';
    await until(() => scheduler.status().lastError === null, 1_000, 'the run after the server came back');
    expect(server.count('/embed')).toBe(embedsAtFailure + 1);
  });

  it('retries a server that answers its health check but fails embeddings with the backoff, not at every check', async () => {
    const server = await startEmbeddingServer('broken');
    const embedder = createHttpEmbedder({ url: server.url, retries: 0, circuitBreaker: { failureThreshold: 1_000 } });
    const scheduler = embeddingScheduler(embedder, { retryMs: 200, intervalMs: 20 });
    scheduler.enqueue(['a.ts']);
    await sleep(700); // backoff: runs at 0, 200 and 600 ms
    expect(server.count('/embed')).toBeGreaterThanOrEqual(2);
    expect(server.count('/embed')).toBeLessThanOrEqual(4);
    expect(server.count('/health')).toBeLessThanOrEqual(server.count('/embed'));
  });

  it('keeps the backoff for a failure that is not about the embedder, and never checks it', async () => {
    let checks = 0;
    const outage: OutageProbe = {
      name: 'test',
      intervalMs: 10,
      covers: (error) => isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE),
      check: async () => (checks++, true),
    };
    const starts: number[] = [];
    const scheduler = createIndexScheduler({
      debounceMs: 5,
      retryMs: 150,
      outage,
      run: async () => {
        starts.push(Date.now());
        if (starts.length <= 2) throw new MonoragError(ErrorCode.STORE_FAILED, 'disk full');
        return report();
      },
    });
    cleanups.push(() => scheduler.close());
    scheduler.enqueue(['a.ts']);
    await until(() => starts.length === 3, 3_000, 'three runs');
    await scheduler.idle();
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(145);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(295);
    expect(checks).toBe(0);
    expect(scheduler.status().lastError).toBeNull();
  });

  it('while the checks fail, retries the failed run blindly only 60 s after it failed, and close() ends the checks', async () => {
    vi.useFakeTimers();
    let checks = 0;
    const outage: OutageProbe = { name: 'test', intervalMs: 1_000, covers: () => true, check: async () => (checks++, false) };
    let runs = 0;
    const scheduler = createIndexScheduler({
      debounceMs: 5,
      retryMs: 2_000,
      outage,
      run: async () => {
        runs++;
        throw new MonoragError(ErrorCode.EMBEDDER_UNAVAILABLE, 'down');
      },
    });
    scheduler.enqueue(['a.ts']);
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(runs).toBe(1); // not at 2, 6, 14, 30 s as the backoff alone would
    expect(checks).toBeGreaterThanOrEqual(58);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    await scheduler.close();
    const checksAtClose = checks;
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(checks).toBe(checksAtClose);
    expect(runs).toBe(2);
  });
});
