import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunker } from '@monorag/chunker';
import { createFakeEmbedder } from '@monorag/embedder-client';
import { indexProject } from '@monorag/indexer';
import { createBullmqIndexQueue, indexFile, planFileJobs, startBullmqIndexWorker, startRedisServer, type TestRedis } from '@monorag/indexer/queue';
import { createRetriever } from '@monorag/retriever';
import { openSqliteStore, type SqliteStore } from '@monorag/store';
import { REPO_ROOT } from './cli.js';

interface Corpus {
  name: string;
  version: string;
  ignore: string[];
}

const corpora = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'eval', 'corpora.json'), 'utf8')) as { corpora: Corpus[] }).corpora;
const corpusDir = (c: Corpus): string => path.join(REPO_ROOT, 'eval', '.corpora', `${c.name}-${c.version}`);
const questions = (c: Corpus): string[] =>
  (JSON.parse(readFileSync(path.join(REPO_ROOT, 'eval', 'golden', `${c.name}.json`), 'utf8')) as { questions: { query: string }[] }).questions.map((q) => q.query);

const MAX_FILE_BYTES = 1024 * 1024;
const LIMITS = { defaultLimit: 10, maxLimit: 50, candidatePool: 50, maxQueryChars: 2000, snippetChars: 600 };
let redis: TestRedis;
let dir: string;

beforeAll(async () => {
  // The pinned corpora (sha256-checked tarballs); a no-op when already fetched.
  if (corpora.some((c) => !existsSync(corpusDir(c)))) execFileSync('node', [path.join(REPO_ROOT, 'eval', 'fetch-corpora.mjs')], { stdio: 'inherit' });
  redis = await startRedisServer();
  dir = mkdtempSync(path.join(tmpdir(), 'monorag-queue-ranking-'));
});
afterAll(async () => {
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('in-process indexing and the BullMQ path give the same search results (SQLite store, fake embedder)', () => {
  for (const corpus of corpora) {
    it(`${corpus.name}@${corpus.version}: same top 10 for every golden question`, async () => {
      const root = corpusDir(corpus);
      const embedder = createFakeEmbedder();
      const info = await embedder.info();
      const chunker = await createChunker({ maxTokens: info.maxSeqLength });
      const identity = { model: info.model, dim: info.dim, chunkerVersion: chunker.version };
      const open = (name: string): Promise<SqliteStore> => openSqliteStore({ file: path.join(dir, `${corpus.name}-${name}.sqlite`), identity });

      const inProcess = await open('memory');
      await indexProject({ root, store: inProcess, chunker, embedder, maxFileBytes: MAX_FILE_BYTES, extraIgnores: corpus.ignore });

      // BullMQ: plan against the (empty) manifest, enqueue, two workers with their own store connections.
      const queued = await open('bullmq');
      const project = `ranking-${corpus.name}`;
      const queue = createBullmqIndexQueue({ redisUrl: redis.url, project });
      const plan = await planFileJobs({ root, store: queued, maxFileBytes: MAX_FILE_BYTES, extraIgnores: corpus.ignore });
      await queue.enqueue(plan.paths);
      const workerStores = [await open('bullmq'), await open('bullmq')];
      const workers = await Promise.all(
        workerStores.map((store) =>
          startBullmqIndexWorker({
            redisUrl: redis.url,
            project,
            concurrency: 2,
            processFile: (data) => indexFile({ root, path: data.path, store, chunker, embedder, maxFileBytes: MAX_FILE_BYTES }),
          }),
        ),
      );
      expect(await queue.drained(100)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
      for (const worker of workers) await worker.close();
      for (const store of workerStores) await store.close();
      await queue.close();

      expect(await queued.stats()).toEqual(await inProcess.stats());
      expect((await queued.listFiles()).map(({ indexedAt: _, ...f }) => f)).toEqual((await inProcess.listFiles()).map(({ indexedAt: _, ...f }) => f));

      const search = (store: SqliteStore) => {
        const retriever = createRetriever({ store, getEmbedder: async () => embedder, limits: LIMITS });
        return async (query: string) => (await retriever.search({ query, limit: 10 })).results.map((r) => `${r.path}:${r.startLine}-${r.endLine}`);
      };
      const [a, b] = [search(inProcess), search(queued)];
      const golden = questions(corpus);
      expect(golden.length).toBeGreaterThan(20);
      for (const query of golden) {
        const expected = await a(query);
        expect(expected.length).toBeGreaterThan(0);
        expect({ query, top10: await b(query) }).toEqual({ query, top10: expected });
      }
      await inProcess.close();
      await queued.close();
    });
  }
});
