// `pnpm eval:explain <question id>...`: for each golden question, the rank of the accepted answer in
// every list the product's retriever builds (dense and BM25 as fused, exact-symbol, RRF, then each
// prior that is on), read through the retriever's own trace so it cannot drift from the product,
// and the top of each list, to see which stage loses a miss. Uses the eval's indexes (fetching and
// building what is missing first, as `pnpm eval` does). `--row <ablation id>` explains another row
// (default: the product). An unknown question id exits 2 before anything is fetched or embedded.
// Writes to stdout.
import path from 'node:path';
import { analyseQuery, createRetriever, type RankingStage } from '@monorag/retriever';
import { createLogger, type ScoredChunk } from '@monorag/shared';
import { ABLATIONS, MAIN_ABLATION } from './ablations.js';
import { createCachedEmbedder } from './cached-embedder.js';
import { readGolden, type GoldenQuestion } from './golden.js';
import { fetchCorpora } from './corpora.js';
import { CACHE_DIR, indexAll } from './index-all.js';
import { openEmbedder } from './open-embedder.js';
import { readArgsOrExit } from './read-args.js';

const USAGE = `Usage: pnpm eval:explain [--row <ablation id>] [--top <n>] [--cache-dir <dir>] [question id ...]

  --row <id>          the ablation row to explain (default ${MAIN_ABLATION})
  --top <n>           results shown per list (default 5)
  --cache-dir <dir>   the eval's cache (default eval/.cache); missing corpora are fetched and indexed first
                      (as \`pnpm eval\` does), which takes minutes on a cold cache
`;
const { values: flags, positionals } = readArgsOrExit('eval:explain', USAGE, {
  allowPositionals: true,
  options: { 'cache-dir': { type: 'string' }, row: { type: 'string', default: MAIN_ABLATION }, top: { type: 'string', default: '5' } },
});
const row = ABLATIONS.find((a) => a.id === flags.row);
if (!row) {
  process.stderr.write(`eval:explain: --row ${flags.row} is not an ablation row; rows: ${ABLATIONS.map((a) => a.id).join(', ')}\n`);
  process.exit(2);
}
const cacheDir = path.resolve(flags['cache-dir'] ?? CACHE_DIR);
const top = Number(flags.top);
if (!Number.isInteger(top) || top < 1) {
  process.stderr.write(`eval:explain: --top ${flags.top} is not a whole number of at least 1\n\n${USAGE}`);
  process.exit(2);
}
// Question ids first: an unknown one is a typo, found before any corpus is fetched or embedded.
const questions = readGolden().filter((q) => positionals.length === 0 || positionals.includes(q.id));
const unknown = positionals.filter((id) => !questions.some((q) => q.id === id));
if (unknown.length > 0) {
  process.stderr.write(`eval:explain: no golden question ${unknown.join(', ')} (ids are in eval/golden/*.json, e.g. u-s01)\n`);
  process.exit(2);
}
fetchCorpora();
const logger = createLogger({ level: 'warn' });
const model = await openEmbedder(cacheDir, logger);
const embedder = await createCachedEmbedder(model, path.join(cacheDir, 'embeddings'));
const indexes = await indexAll(embedder, [row.chunking], path.join(cacheDir, 'index'), logger);

function rankOf(q: GoldenQuestion, list: readonly ScoredChunk[]): string {
  const i = list.findIndex(({ chunk }) => q.accepted.some((a) => a.path === chunk.path && a.startLine <= chunk.endLine && chunk.startLine <= a.endLine));
  return i < 0 ? '-' : String(i + 1);
}
const show = (list: readonly ScoredChunk[]): string => list.slice(0, top).map(({ chunk, score }) => `${chunk.path}:${chunk.startLine}-${chunk.endLine} ${score.toPrecision(4)}`).join('\n      ');

for (const q of questions) {
  const { store } = indexes.find((i) => i.corpus.name === q.corpus)!;
  const retriever = createRetriever({
    store,
    getEmbedder: async () => embedder,
    limits: { defaultLimit: 10, maxLimit: 50, candidatePool: row.candidatePool, maxQueryChars: 2000, snippetChars: 200 },
    ranking: row.ranking,
    logger,
  });
  const stages: [RankingStage, readonly ScoredChunk[]][] = [];
  await retriever.search({ query: q.query, limit: 10, mode: row.mode }, (stage, list) => stages.push([stage, list]));
  process.stdout.write(`${q.id} (${q.type}, ${q.answer}, intent ${analyseQuery(q.query).intent}): ${q.query}\n  accepted: ${q.accepted.map((a) => `${a.path}:${a.startLine}-${a.endLine}`).join(', ')}\n`);
  for (const [name, list] of stages) process.stdout.write(`  ${name.padEnd(6)} rank ${rankOf(q, list)} of ${list.length}\n      ${show(list)}\n`);
}
for (const i of indexes) await i.store.close();
