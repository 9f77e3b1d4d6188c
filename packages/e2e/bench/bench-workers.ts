// Throughput of the BullMQ indexing path with 1, 2 and 4 `monorag worker` processes on this machine
// (pnpm bench:workers [files]). Each worker runs 2 jobs at once into one SQLite index; embeddings come
// from the fake embedder over HTTP (the real model runs about 20 chunks/s on 2 cores and would be the
// only thing measured). Time runs from the enqueue to the drained queue, with workers already started.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { createBullmqIndexQueue, startRedisServer } from '@monorag/indexer/queue';
import { openSqliteStore } from '@monorag/store';
import { cliCommand, REPO_ROOT } from '../test/cli.js';
import { startFakeEmbeddingHttp } from '../test/fake-embedding-http.js';
import { writeGeneratedCorpus } from '../test/generated-corpus.js';

const FILES = Number(process.argv[2] ?? 1000);
const TICKS_PER_SECOND = 100;

/** [ppid, CPU seconds (user + system)] of a process, from /proc/<pid>/stat. */
function procStat(pid: number): [number, number] {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return [Number(fields[1]), (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND];
}

/** CPU seconds used so far by `pid` and all its descendants (tsx runs the CLI in a child node process). */
function cpuSeconds(pid: number): number {
  const stats = new Map<number, [number, number]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.set(Number(entry), procStat(Number(entry)));
    } catch {
      // The process ended between the listing and the read; it has no CPU time left to count.
    }
  }
  const inTree = (p: number): boolean => p === pid || (p > 1 && stats.has(p) && inTree(stats.get(p)?.[0] ?? 0));
  let total = 0;
  for (const [p, [, cpu]] of stats) if (inTree(p)) total += cpu;
  return total;
}

async function run(workers: number, redisUrl: string, embeddingUrl: string, root: string, paths: string[]): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-bench-data-'));
  const project = `bench-${workers}-${Date.now()}`;
  const env = { ...process.env, REDIS_URL: redisUrl, EMBEDDING_URL: embeddingUrl, MONORAG_DATA_DIR: dataDir, MONORAG_PROJECT: project, MONORAG_LOG_LEVEL: 'warn' };
  const children: ChildProcess[] = [];
  await Promise.all(
    Array.from({ length: workers }, () =>
      new Promise<void>((resolve, reject) => {
        const { command, args } = cliCommand(['worker', root, '--concurrency', '2']);
        const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
        children.push(child);
        child.stderr?.on('data', (d: Buffer) => {
          if (d.toString().includes('monorag worker:')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
      }),
    ),
  );
  const cpuBefore = children.map((c) => cpuSeconds(c.pid ?? 0));
  const benchCpuBefore = process.cpuUsage();
  const queue = createBullmqIndexQueue({ redisUrl, project });
  const started = performance.now();
  await queue.enqueue(paths);
  const counts = await queue.drained(50);
  const seconds = (performance.now() - started) / 1000;
  const cpu = children.reduce((sum, c, i) => sum + cpuSeconds(c.pid ?? 0) - (cpuBefore[i] ?? 0), 0);
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const embedCpu = (benchCpu.user + benchCpu.system) / 1e6;
  await queue.close();
  await Promise.all(children.map((c) => new Promise((resolve) => { c.once('exit', resolve); c.kill('SIGTERM'); })));
  const store = await openSqliteStore({ file: path.join(dataDir, 'index.sqlite') });
  const stats = await store.stats();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(
    `${String(workers).padStart(7)} | ${seconds.toFixed(1).padStart(6)} s | ${(FILES / seconds).toFixed(0).padStart(7)} files/s | ${(stats.chunks / seconds).toFixed(0).padStart(8)} chunks/s | ` +
      `workers ${(cpu / seconds).toFixed(2)} cores, fake embedder + producer ${(embedCpu / seconds).toFixed(2)} cores | failed ${counts.failed}, indexed ${stats.files}\n`,
  );
}

const redis = await startRedisServer();
const embedding = await startFakeEmbeddingHttp();
const root = mkdtempSync(path.join(tmpdir(), 'monorag-bench-corpus-'));
const paths = writeGeneratedCorpus(root, FILES);
process.stdout.write(`BullMQ workers (concurrency 2 each), ${FILES} generated files, SQLite store, fake embedder over HTTP; ${cpus().length} CPU cores\n`);
process.stdout.write('workers |   time   |  throughput     |  chunks          | CPU busy during the run\n');
try {
  for (const workers of [1, 2, 4]) await run(workers, redis.url, embedding.url, root, paths);
} finally {
  await redis.stop();
  await embedding.stop();
  rmSync(root, { recursive: true, force: true });
}
