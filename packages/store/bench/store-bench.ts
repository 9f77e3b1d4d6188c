// Measures the SQLite store on 10k chunks x 384 dimensions. Not a test: run it by hand with
//   npx tsx --conditions=monorag-source packages/store/bench/store-bench.ts
// and read the figures on stdout. Vectors and texts are deterministic; no embedding model is needed.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deterministicVector, testChunk, testFile } from '../src/contract/fixtures.js';
import { openSqliteStore } from '../src/sqlite-store.js';

const DIM = 384;
const FILES = 1000;
const CHUNKS_PER_FILE = 10;
const RUNS = 50;
const words = ['parse', 'header', 'request', 'client', 'token', 'cache', 'index', 'render', 'config', 'stream', 'buffer', 'retry'];
const word = (i: number): string => words[i % words.length] as string;

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const dir = mkdtempSync(path.join(tmpdir(), 'monorag-bench-'));
const file = path.join(dir, 'index.sqlite');
const store = await openSqliteStore({ file, identity: { model: 'bench', dim: DIM, chunkerVersion: '1' } });
const batches = Array.from({ length: FILES }, (_, f) => {
  const filePath = `packages/pkg${f % 20}/src/${word(f)}/${word(f + 3)}${f}.ts`;
  const chunks = Array.from({ length: CHUNKS_PER_FILE }, (_, c) =>
    testChunk({
      path: filePath,
      startLine: 1 + c * 20,
      endLine: 20 + c * 20,
      symbol: `${word(f + c)}${word(f * 7 + c).replace(/^./, (s) => s.toUpperCase())}${c}`,
      content: Array.from({ length: 15 }, (_, l) => `  const ${word(f + c + l)}Value = ${word(l)}(${word(f * c + l)}, ${l});`).join('\n'),
    }),
  );
  return { record: testFile(filePath, chunks), chunks, vectors: chunks.map((_, c) => deterministicVector(f * CHUNKS_PER_FILE + c + 1, DIM)) };
});

let start = performance.now();
for (const { record, chunks, vectors } of batches) await store.writeFile(record, chunks, vectors);
const insertMs = performance.now() - start;

const query = deterministicVector(424242, DIM);
const out = {
  chunks: (await store.stats()).chunks,
  dim: DIM,
  insertMs: Math.round(insertMs),
  insertNote: `${FILES} writeFile calls of ${CHUNKS_PER_FILE} chunks, one transaction each`,
  fileMB: Number((statSync(file).size / 1e6 + statSync(`${file}-wal`).size / 1e6).toFixed(1)),
  denseK10Ms: await time(() => store.searchDense(query, { limit: 10 })),
  denseK10PathPrefix5pctMs: await time(() => store.searchDense(query, { limit: 10, filter: { pathPrefix: 'packages/pkg2/' } })),
  denseK10PathPrefix55pctMs: await time(() => store.searchDense(query, { limit: 10, filter: { pathPrefix: 'packages/pkg1' } })),
  denseK10LanguageMs: await time(() => store.searchDense(query, { limit: 10, filter: { language: 'typescript' } })),
  // Every chunk holds these words (12-word vocabulary): the worst case, all 10k rows are scored.
  lexicalK10Ms: await time(() => store.searchLexical('parse header request', { limit: 10 })),
  lexicalRareK10Ms: await time(() => store.searchLexical('streamRequest3 handler', { limit: 10 })),
  lexicalK50Ms: await time(() => store.searchLexical('how does parseHeader retry the stream', { limit: 50 })),
  lexicalK10PathPrefixMs: await time(() => store.searchLexical('parse header request', { limit: 10, filter: { pathPrefix: 'packages/pkg2/' } })),
};
start = performance.now();
for (const { record, chunks, vectors } of batches.slice(0, 100)) await store.writeFile(record, chunks, vectors);
const rewriteMs = performance.now() - start;
await store.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ ...out, rewrite100FilesMs: Math.round(rewriteMs) }, null, 2)}\n`);
