// `pnpm eval:explain <question id>...`: for each golden question, the rank of the accepted answer in
// every list the product ranker builds (dense, BM25, exact-symbol, fused, file evidence, intent) and
// the top of each list, to see which stage loses a miss. Uses the eval's syntax indexes (run `pnpm
// eval` first so they exist). Writes to stdout.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { analyseQuery, applyFileEvidence, applyIntent, reciprocalRankFusion, symbolMatches } from '@monorag/retriever';
import { createLogger, type ScoredChunk } from '@monorag/shared';
import { createCachedEmbedder } from './cached-embedder.js';
import { readGolden, type GoldenQuestion } from './golden.js';
import { CACHE_DIR, indexAll } from './index-all.js';
import { openEmbedder } from './open-embedder.js';

const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { 'cache-dir': { type: 'string' }, pool: { type: 'string', default: '50' }, top: { type: 'string', default: '5' } } });
const cacheDir = path.resolve(flags['cache-dir'] ?? CACHE_DIR);
const pool = Number(flags.pool);
const top = Number(flags.top);
const logger = createLogger({ level: 'warn' });
const model = await openEmbedder(cacheDir, logger);
const embedder = await createCachedEmbedder(model, path.join(cacheDir, 'embeddings'));
const indexes = await indexAll(embedder, ['syntax'], path.join(cacheDir, 'index'), logger);
const questions = readGolden().filter((q) => positionals.length === 0 || positionals.includes(q.id));

function rankOf(q: GoldenQuestion, list: readonly ScoredChunk[]): string {
  const i = list.findIndex(({ chunk }) => q.accepted.some((a) => a.path === chunk.path && a.startLine <= chunk.endLine && chunk.startLine <= a.endLine));
  return i < 0 ? '-' : String(i + 1);
}
const show = (list: readonly ScoredChunk[]): string => list.slice(0, top).map(({ chunk, score }) => `${chunk.path}:${chunk.startLine}-${chunk.endLine} ${score.toFixed(4)}`).join('\n      ');

for (const q of questions) {
  const { store } = indexes.find((i) => i.corpus.name === q.corpus)!;
  const analysis = analyseQuery(q.query);
  const [vector] = await embedder.embed([q.query]);
  const dense = await store.searchDense(vector!, { limit: pool });
  const lexical = await store.searchLexical(q.query, { limit: pool });
  const lists = [dense, lexical];
  if (analysis.identifiers.length > 0) {
    const byName = await store.searchLexical(analysis.identifiers.join(' '), { limit: pool });
    const exact = symbolMatches(analysis.identifiers, [byName, ...lists]);
    if (exact.length > 0) lists.push(exact);
  }
  const fused = reciprocalRankFusion(lists);
  const evidence = applyFileEvidence(fused);
  const final = applyIntent(evidence, analysis.intent);
  process.stdout.write(`${q.id} (${q.type}, ${q.answer}, intent ${analysis.intent}): ${q.query}\n  accepted: ${q.accepted.map((a) => `${a.path}:${a.startLine}-${a.endLine}`).join(', ')}\n`);
  const stages: [string, readonly ScoredChunk[]][] = [['dense', dense], ['bm25', lexical], ...(lists[2] ? [['symbol', lists[2]] as [string, ScoredChunk[]]] : []), ['rrf', fused], ['file', evidence], ['intent', final]];
  for (const [name, list] of stages) process.stdout.write(`  ${name.padEnd(6)} rank ${rankOf(q, list)}\n      ${show(list)}\n`);
}
for (const i of indexes) await i.store.close();
