/**
 * `pnpm bench:embed`: throughput and latency of the embedding service with the real
 * all-MiniLM-L6-v2, direct to one server and through nginx (nginx/embedding-proxy.conf) in front of
 * two servers.
 *
 * - texts/s at request batch sizes 1, 8, 32, 128 (one client, requests back to back);
 * - p50/p99 latency of one-text requests (a search query) at 1, 4 and 16 concurrent clients.
 *
 * Each server gets EMBEDDING_TORCH_THREADS (default 1, so two servers share a 2-core machine); the
 * direct target is the first of the two. Every cell runs BENCH_ROUNDS times (default 3), direct and
 * nginx alternating; texts/s is the median of the rounds, latency percentiles are over all rounds'
 * samples. Each cell runs for BENCH_CELL_MS (default 2500 ms). Texts are code-like, about 300
 * characters (about 90 word pieces), different in every request.
 */
import { performance } from 'node:perf_hooks';
import {
  startEmbeddingServer,
  startNginx,
  type EmbeddingServerProcess,
  type NginxProcess,
} from '../src/embedding-cluster.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CELL_MS = Number(process.env.BENCH_CELL_MS ?? 2500);
const THREADS = process.env.EMBEDDING_TORCH_THREADS ?? '1';
const BATCH_SIZES = [1, 8, 32, 128];
const CONCURRENCY = [1, 4, 16];

let counter = 0;
function text(): string {
  const n = counter++;
  return (
    `export async function handleRequest${n}(req: Request, retries = ${n % 7}): Promise<Response> {\n` +
    `  // parse the headers of request ${n}, then retry the upstream call with exponential backoff\n` +
    `  const headers = parseHeaders(req.headers); const url = new URL(req.url, 'http://localhost:${n % 9000}');\n` +
    `  return fetchWithRetry(url, { headers, retries, backoffMs: ${(n % 5) * 100} });\n}`
  );
}

async function post(url: string, texts: string[]): Promise<void> {
  const response = await fetch(`${url}/embed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ texts }),
  });
  if (response.status !== 200) throw new Error(`${url}/embed answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/** texts/s with one client sending `batch`-text requests back to back for CELL_MS. */
async function throughput(url: string, batch: number): Promise<number> {
  await post(url, Array.from({ length: batch }, text)); // not timed: first request at this size
  let texts = 0;
  const started = performance.now();
  while (performance.now() - started < CELL_MS || texts === 0) {
    await post(url, Array.from({ length: batch }, text));
    texts += batch;
  }
  return texts / ((performance.now() - started) / 1000);
}

/** Latencies (ms) of one-text requests from `clients` concurrent clients during CELL_MS. */
async function latencies(url: string, clients: number): Promise<number[]> {
  const samples: number[] = [];
  const end = performance.now() + CELL_MS;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        await post(url, [text()]);
        samples.push(performance.now() - started);
      }
    }),
  );
  return samples;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function median(values: number[]): number {
  return percentile(values, 50);
}

function row(cells: (string | number)[], widths: number[]): string {
  return cells.map((c, i) => String(c).padStart(widths[i]!)).join('  ');
}

async function main(): Promise<void> {
  const out = (line = ''): boolean => process.stdout.write(`${line}\n`);
  const env = { ...process.env, EMBEDDING_TORCH_THREADS: THREADS, EMBEDDING_LOG_LEVEL: 'warning' };
  let servers: EmbeddingServerProcess[] = [];
  let nginx: NginxProcess | undefined;
  try {
    process.stderr.write('bench:embed: starting two embedding servers (real model) and nginx...\n');
    servers = await Promise.all([
      startEmbeddingServer({ modelImpl: 'sentence-transformers', env }),
      startEmbeddingServer({ modelImpl: 'sentence-transformers', env }),
    ]);
    nginx = await startNginx(servers.map((s) => s.port));
    const targets = { direct: servers[0]!.url, nginx: nginx.url };

    const rates: Record<string, number[]> = {};
    const lat: Record<string, number[]> = {};
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`bench:embed: round ${round}/${ROUNDS}\n`);
      for (const batch of BATCH_SIZES) {
        for (const [name, url] of Object.entries(targets)) (rates[`${name}:${batch}`] ??= []).push(await throughput(url, batch));
      }
      for (const clients of CONCURRENCY) {
        for (const [name, url] of Object.entries(targets)) (lat[`${name}:${clients}`] ??= []).push(...(await latencies(url, clients)));
      }
    }

    out(`embedding service, all-MiniLM-L6-v2 on CPU, ${THREADS} torch thread(s) per server; direct = 1 server, nginx = 2 servers`);
    out(`medians of ${ROUNDS} rounds of ${CELL_MS} ms per cell`);
    out();
    const w1 = [12, 16, 16];
    out(row(['batch size', 'direct texts/s', 'nginx texts/s'], w1));
    for (const batch of BATCH_SIZES) {
      out(row([batch, median(rates[`direct:${batch}`]!).toFixed(1), median(rates[`nginx:${batch}`]!).toFixed(1)], w1));
    }
    out();
    const w2 = [8, 15, 15, 14, 14, 9, 9];
    out(row(['clients', 'direct p50 ms', 'direct p99 ms', 'nginx p50 ms', 'nginx p99 ms', 'n direct', 'n nginx'], w2));
    for (const clients of CONCURRENCY) {
      const d = lat[`direct:${clients}`]!;
      const n = lat[`nginx:${clients}`]!;
      out(
        row(
          [clients, percentile(d, 50).toFixed(1), percentile(d, 99).toFixed(1), percentile(n, 50).toFixed(1), percentile(n, 99).toFixed(1), d.length, n.length],
          w2,
        ),
      );
    }
  } finally {
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.kill()));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:embed failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
