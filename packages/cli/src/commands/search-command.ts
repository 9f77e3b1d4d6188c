import { resolveLanguageId } from '@monorag/chunker';
import { analyseWithSymbols, INTENT_FACTORS, MAX_DEMOTION, RANKING_STAGES, TEST_FACTOR, resolvePathPrefix, searchWithFreshness, stageRanks, type RankingStage, type SearchResponse, type StageRanks } from '@monorag/retriever';
import { ErrorCode, MonoragError, type ScoredChunk } from '@monorag/shared';
import { openRetriever } from '../open-retriever.js';
import { formatResults } from '../format-results.js';
import { createProjectContext } from '../project-context.js';

/** Options of `monorag search`. */
export interface SearchCommandOptions {
  project?: string;
  dataDir?: string;
  limit?: number;
  path?: string;
  language?: string;
  lexical?: boolean;
  json?: boolean;
  /** Add each result's rank in every ranking stage (`explain` per result in JSON, a `ranks:` line in text). */
  explain?: boolean;
}

/**
 * `monorag search <query>`: prints results; with `--json` prints only
 * `{"results":[{path,startLine,endLine,symbol,kind,score,snippet,language}], "mode", "index", "warnings"}` on stdout.
 * `--language` takes an id or an alias (`ts`, `py`, ...); `--path` a repo-relative prefix or an absolute path inside the project.
 * `--explain` adds, per result, its 1-based rank in each stage of the query path (JSON: every stage of
 * `RANKING_STAGES` as a key, `null` where the stage did not run or its list lacks the result; text:
 * the stages that ran), and the query's intent with the factors that weighted prose and code (and
 * test files, when the test-file prior ran).
 * @throws MonoragError `INVALID_ARGUMENT` for an unknown language or a `--limit` over `search.maxLimit`, `PATH_OUTSIDE_PROJECT` for a `--path` outside the project.
 */
export async function runSearchCommand(query: string, options: SearchCommandOptions): Promise<SearchResponse> {
  const context = createProjectContext({ project: options.project, argName: '--project', overrides: { dataDir: options.dataDir } });
  const { maxLimit } = context.config.search;
  if (options.limit !== undefined && options.limit > maxLimit) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `--limit: at most ${maxLimit} results (the project's search.maxLimit); got ${options.limit}.`);
  }
  const language = options.language === undefined ? undefined : resolveLanguageId(options.language, '--language');
  const pathPrefix = options.path === undefined ? undefined : resolvePathPrefix(context.root, options.path, '--path');
  // Without --json every warning is printed below, so the retriever need not log its faults too (a trial saw each twice).
  const index = await openRetriever(context, undefined, { showsWarnings: !options.json });
  try {
    const stages: [RankingStage, readonly ScoredChunk[]][] = [];
    // Freshness judged against the work tree (HEAD, queued hook paths, a run in progress), asked for before the search.
    const response: SearchResponse = await searchWithFreshness(
      index.retriever,
      { query, limit: options.limit, pathPrefix, language, mode: options.lexical ? 'lexical' : 'hybrid' },
      index.readFreshness,
      options.explain ? (stage, list) => stages.push([stage, list]) : undefined,
    );
    const ranks: StageRanks[] | undefined = options.explain ? stageRanks(stages, response.results) : undefined;
    if (!options.json) for (const warning of response.warnings) process.stderr.write(`monorag: warning: ${warning}\n`);
    // As the retriever read it: words the symbol table confirms as names make a query `named`.
    const intent = (await analyseWithSymbols(index.store, query, pathPrefix)).intent;
    const explained = ranks && { intent, factors: INTENT_FACTORS[intent], stages: stages.map(([stage]) => stage) };
    const json = ranks
      ? {
          ...response,
          explain: explained,
          results: response.results.map((hit, i) => ({ ...hit, explain: { ...Object.fromEntries(RANKING_STAGES.map((stage) => [stage, null])), ...ranks[i] } })),
        }
      : response;
    process.stdout.write(options.json ? `${JSON.stringify(json)}\n` : formatResults(response, undefined, ranks, query));
    if (explained && !options.json && explained.stages.includes('intent')) {
      process.stdout.write(
        `(intent ${intent}: scores of prose results x${explained.factors.prose}, of code x${explained.factors.code}; dense and bm25 ranks are among all fused candidates)\n`,
      );
    }
    if (explained && !options.json && explained.stages.includes('tests')) {
      process.stdout.write(`(the query does not ask about tests: scores of results from test files x${TEST_FACTOR})\n`);
    }
    if (explained && !options.json && explained.stages.includes('side')) {
      process.stdout.write(`(scores of results from benchmarks or release notes, unless the query asks about them, x${TEST_FACTOR})\n`);
    }
    if (explained && !options.json && explained.stages.includes('cap')) {
      process.stdout.write(`(the priors move no result more than ${MAX_DEMOTION} places below its rrf rank)\n`);
    }
    return response;
  } finally {
    await index.close();
  }
}
