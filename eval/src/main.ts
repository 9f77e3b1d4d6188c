// `pnpm eval`: indexes the pinned corpora (reusing eval/.cache when unchanged), runs every golden
// question through every ablation row, writes eval/out/*.json and prints Markdown tables on stdout.
// Flags: --check (fail when the main row falls below eval/baseline.json), --write-baseline,
// --ranker <row id> (the row checked; e.g. `dense` shows the gate failing), --only <ids,...>,
// --cache-dir <dir> (indexes, embedding cache and embedder state; default eval/.cache).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRetriever } from '@monorag/retriever';
import { createLogger } from '@monorag/shared';
import { ABLATIONS, MAIN_ABLATION } from './ablations.js';
import { createCachedEmbedder } from './cached-embedder.js';
import { checkBaseline, type Baseline } from './check-baseline.js';
import { EVAL_DIR, fetchCorpora } from './corpora.js';
import { readGolden } from './golden.js';
import { readArgsOrExit } from './read-args.js';
import { CACHE_DIR, indexAll, type ChunkingVariant } from './index-all.js';
import { scoreQuestion, summarise, type QuestionScore } from './metrics.js';
import { openEmbedder } from './open-embedder.js';
import { comparePaired } from './paired-comparison.js';
import { renderMarkdown, type RowResult } from './render-markdown.js';

const USAGE = `Usage: pnpm eval [--only <row ids,...>] [--ranker <row id>] [--check] [--write-baseline] [--cache-dir <dir>]

  --only <ids>        run only these ablation rows (comma-separated), plus the --ranker row
  --ranker <id>       the row --check and --write-baseline use (default ${MAIN_ABLATION})
  --check             exit 1 when that row's R@5 or MRR@10 falls below eval/baseline.json by more than its tolerance
  --write-baseline    write that row's figures to eval/baseline.json
  --cache-dir <dir>   indexes, embedding cache and embedder state (default eval/.cache)

Rows: ${ABLATIONS.map((a) => a.id).join(', ')}
`;
const { values: flags } = readArgsOrExit('eval', USAGE, {
  options: {
    check: { type: 'boolean', default: false },
    'write-baseline': { type: 'boolean', default: false },
    ranker: { type: 'string', default: MAIN_ABLATION },
    only: { type: 'string' },
    'cache-dir': { type: 'string' },
  },
});
const started = Date.now();
const say = (line: string): void => void process.stderr.write(`${line}\n`);
const unknownRows = (flags.only ?? '').split(',').filter((id) => id !== '' && !ABLATIONS.some((a) => a.id === id));
if (unknownRows.length > 0) {
  say(`eval: --only ${unknownRows.join(', ')}: not an ablation row; rows: ${ABLATIONS.map((a) => a.id).join(', ')}`);
  process.exit(2);
}
const rows = flags.only ? ABLATIONS.filter((a) => flags.only!.split(',').includes(a.id) || a.id === flags.ranker) : ABLATIONS;
const mainRow = ABLATIONS.find((a) => a.id === flags.ranker);
if (!mainRow) {
  say(`eval: --ranker ${flags.ranker} is not an ablation row; rows: ${ABLATIONS.map((a) => a.id).join(', ')}`);
  process.exit(2);
}

fetchCorpora();
const logger = createLogger({ level: 'warn' });
const cacheDir = path.resolve(flags['cache-dir'] ?? CACHE_DIR);
const model = await openEmbedder(cacheDir, logger);
const embedder = await createCachedEmbedder(model, path.join(cacheDir, 'embeddings'));
const variants = [...new Set(rows.map((r) => r.chunking))] as ChunkingVariant[];
const indexStarted = Date.now();
const indexes = await indexAll(embedder, variants, path.join(cacheDir, 'index'), logger, say);
const indexMs = Date.now() - indexStarted;

const questions = readGolden();
// One model request per question (past the cache), so each query's embedding time is known for the
// latency figures; the ablation rows then reuse the vector.
const queryEmbedMs = new Map<string, number>();
for (const q of questions) {
  const t0 = performance.now();
  await model.embed([q.query]);
  queryEmbedMs.set(q.query, performance.now() - t0);
}

const results: RowResult[] = [];
for (const row of rows) {
  const scores: (QuestionScore & { type: string; answer: string; docParaphrase: boolean; corpus: string; top: string[] })[] = [];
  for (const q of questions) {
    const index = indexes.find((i) => i.corpus.name === q.corpus && i.variant === row.chunking);
    if (!index) throw new Error(`no index for corpus ${q.corpus} (${row.chunking}); check eval/corpora.json`);
    const retriever = createRetriever({
      store: index.store,
      getEmbedder: async () => embedder,
      limits: { defaultLimit: 10, maxLimit: 50, candidatePool: row.candidatePool, maxQueryChars: 2000, snippetChars: 200 },
      ranking: row.ranking,
      logger,
    });
    const t0 = performance.now();
    const response = await retriever.search({ query: q.query, limit: 10, mode: row.mode });
    const searchMs = performance.now() - t0;
    const latencyMs = searchMs + (row.mode === 'lexical' ? 0 : (queryEmbedMs.get(q.query) ?? 0));
    const score = scoreQuestion(q, response.results, latencyMs);
    scores.push({ ...score, type: q.type, answer: q.answer, docParaphrase: q.docParaphrase, corpus: q.corpus, top: response.results.slice(0, 5).map((r) => `${r.path}:${r.startLine}-${r.endLine}`) });
  }
  const pick = (f: (s: (typeof scores)[number]) => boolean) => summarise(scores.filter(f));
  results.push({
    id: row.id,
    label: row.label,
    overall: summarise(scores),
    split: {
      lexical: pick((s) => s.type === 'lexical'),
      semantic: pick((s) => s.type === 'semantic'),
      code: pick((s) => s.answer === 'code'),
      docs: pick((s) => s.answer === 'docs'),
      docParaphrase: pick((s) => s.docParaphrase),
      ...Object.fromEntries([...new Set(questions.map((q) => q.corpus))].map((c) => [c, pick((s) => s.corpus === c)])),
    },
    questions: scores,
  });
}
for (const i of indexes) await i.store.close();

const main = results.find((r) => r.id === mainRow.id)!;
const baselineFile = path.join(EVAL_DIR, 'baseline.json');
let check: ReturnType<typeof checkBaseline> | undefined;
if (flags['write-baseline']) {
  const previous = existsSync(baselineFile) ? (JSON.parse(readFileSync(baselineFile, 'utf8')) as Baseline) : undefined;
  const baseline: Baseline = { tolerance: previous?.tolerance ?? 0.03, recall5: main.overall.recall5, mrr10: main.overall.mrr10, summary: main.overall };
  writeFileSync(baselineFile, `${JSON.stringify(baseline, null, 2)}\n`);
  say(`wrote ${baselineFile}`);
}
if (flags.check) {
  if (!existsSync(baselineFile)) {
    say(`eval: ${baselineFile} is missing; write it with \`pnpm eval --write-baseline\`.`);
    process.exit(1);
  }
  check = checkBaseline(main.overall, JSON.parse(readFileSync(baselineFile, 'utf8')) as Baseline);
}
const paired = results.filter((r) => r.id !== main.id).map((r) => ({ id: r.id, comparison: comparePaired(main.questions as QuestionScore[], r.questions as QuestionScore[]) }));
const wallMs = Date.now() - started;
const report = {
  startedAt: new Date(started).toISOString(),
  wallMs,
  indexMs,
  indexing: indexes.map((i) => ({ corpus: `${i.corpus.name}@${i.corpus.version}`, variant: i.variant, chunks: i.report.totalChunks, embeddedThisRun: i.report.chunksEmbedded, ms: i.report.durationMs })),
  modelCallsThisRun: embedder.embedded,
  questions: questions.length,
  checkedRow: main.id,
  check,
  paired,
  rows: results,
};
const outDir = path.join(EVAL_DIR, 'out');
mkdirSync(outDir, { recursive: true });
const outFile = path.join(outDir, `eval-${report.startedAt.replace(/[:.]/g, '-')}.json`);
writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(path.join(outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(renderMarkdown(results, main.id, { wallMs, indexMs, questions: questions.length }, paired));
say(`wrote ${outFile}`);
if (check) {
  for (const line of check.lines) say(`check (${main.id}): ${line}`);
  if (!check.ok) {
    say('eval --check FAILED: retrieval quality fell below eval/baseline.json by more than the tolerance.');
    process.exit(1);
  }
}
