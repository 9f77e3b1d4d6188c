import { ErrorCode, MonoragError, errorMessage, type Logger, type ScoredChunk, type SearchHit, type SymbolHit } from '@monorag/shared';
import type { Embedder } from '@monorag/embedder-client';
import type { ChunkStore, SearchFilter } from '@monorag/store';
import { analyseQuery } from './analyse-query.js';
import { analyseWithSymbols, DEFINITIONS_PER_NAME } from './analyse-with-symbols.js';
import { memoisedSymbols } from './memoised-symbols.js';
import { collapseDuplicates } from './collapse-duplicates.js';
import { applyFileEvidence } from './apply-file-evidence.js';
import { applyIntent } from './apply-intent.js';
import { applyTestPrior } from './apply-test-prior.js';
import { applySideFilePrior } from './apply-side-file-prior.js';
import { sideKindsToWeigh, type SideFileKind } from './side-files.js';
import { testPriorExemption } from './test-prior-exemption.js';
import { isTestScope } from './test-paths.js';
import { COMPLETION_DEPTH, completeRankings } from './complete-rankings.js';
import { readIndexFreshness, type IndexFreshness } from './index-freshness.js';
import { DEFAULT_RANKING, MAX_DEMOTION, type RankingOptions } from './ranking-options.js';
import { createQueryVectorCache, QUERY_CACHE_ENTRIES } from './query-vector-cache.js';
import { adaptQueryVector, bundledQueryAdapter, type QueryAdapter } from './query-adapter.js';
import { hitLabel } from './hit-label.js';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.js';
import { resolveFileScope } from './resolve-file-scope.js';
import { makeSnippet } from './snippet.js';
import { holdsDefinitionStart, symbolMatches } from './symbol-matches.js';
import { emptyFilterWarnings } from './empty-filter-warnings.js';
import { capDemotion } from './cap-demotion.js';

/** A UTF-16 surrogate without its pair: not text (JSON can carry one as `\ud800`), and the model cannot encode it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Any letter or digit: a query without one (`!!!`, `=>`) gives BM25 no term. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Retrieval mode: hybrid (dense + BM25, fused by RRF), BM25 only, or dense only. */
export type SearchMode = 'hybrid' | 'lexical' | 'dense';

/** A search request. */
export interface SearchRequest {
  /** Natural-language or code query; 1..maxQueryChars characters. */
  query: string;
  /** Results wanted, 1..maxLimit; default defaultLimit. */
  limit?: number;
  /** Only paths starting with this repo-relative prefix. */
  pathPrefix?: string;
  /** Only chunks of this language id. */
  language?: string;
  /** Default `hybrid`. */
  mode?: SearchMode;
}

/** A search response. */
export interface SearchResponse {
  results: SearchHit[];
  /** The mode actually used (hybrid falls back to lexical when the embedder fails). */
  mode: SearchMode;
  index: IndexFreshness;
  /** Human-readable warnings, e.g. a fallback to BM25 only. */
  warnings: string[];
}

/** Limits of the retriever (see the `search` section of the configuration). */
export interface RetrieverLimits {
  defaultLimit: number;
  maxLimit: number;
  /** Candidates taken from each of dense and BM25 before fusion. */
  candidatePool: number;
  /** Largest accepted query, in characters. */
  maxQueryChars: number;
  /** Snippet size in characters. */
  snippetChars: number;
}

/** Options of {@link createRetriever}. */
export interface RetrieverOptions {
  store: ChunkStore;
  /** Called on the first dense query only, so BM25-only use never starts a model. */
  getEmbedder: () => Promise<Embedder>;
  limits: RetrieverLimits;
  /** Ranking steps after retrieval; defaults in {@link DEFAULT_RANKING}. */
  ranking?: Partial<RankingOptions>;
  logger?: Logger;
  /**
   * The query adapter of an embedding model (id, dimension), or undefined for none; default
   * {@link bundledQueryAdapter}. A throw is reported once in the log and in each dense search's warnings.
   */
  queryAdapterFor?: (model: string, dim: number) => Promise<QueryAdapter | undefined> | QueryAdapter | undefined;
  /**
   * Log level of the faults a search also reports in its `warnings` (an unavailable query adapter, dense
   * retrieval falling back to BM25): `warn` (default) for servers, whose operators read the log; `debug`
   * for a caller that shows every warning to the user itself (`monorag search`), so it is said once.
   */
  faultLogLevel?: 'warn' | 'debug';
}

/**
 * A stage of the query path whose ranked list {@link RankingTrace} receives: the retrievers' lists as
 * fused (`dense`, `bm25`: complete rankings of the candidates in hybrid mode, else the top `pool`),
 * the exact-symbol list (`symbol`, only when the query names identifiers), the fused list (`rrf`),
 * the list after each prior that is switched on (`file`, `intent`, `tests`, `side`), and the list
 * after the cap on how far the priors move a chunk (`cap`, {@link MAX_DEMOTION}).
 */
export type RankingStage = 'dense' | 'bm25' | 'symbol' | 'rrf' | 'file' | 'intent' | 'tests' | 'side' | 'cap';

/** Every {@link RankingStage}, in query-path order. */
export const RANKING_STAGES: readonly RankingStage[] = ['dense', 'bm25', 'symbol', 'rrf', 'file', 'intent', 'tests', 'side', 'cap'];

/** Receives each stage's ranked list, best first, in query-path order (for diagnostics such as `pnpm eval:explain`). */
export type RankingTrace = (stage: RankingStage, list: readonly ScoredChunk[]) => void;

/** Hybrid retrieval over one project's index. */
export interface Retriever {
  /**
   * @param trace optional; called with every stage's list (see {@link RankingStage})
   * @throws MonoragError `INVALID_ARGUMENT` naming `query` (empty, too long, or holding a lone UTF-16 surrogate) or `limit`; `EMBEDDER_UNAVAILABLE` in
   *   `dense` mode when the embedder fails (hybrid mode falls back to BM25 with a warning instead).
   */
  search(request: SearchRequest, trace?: RankingTrace): Promise<SearchResponse>;
}

function validate(request: SearchRequest, limits: RetrieverLimits): { query: string; limit: number } {
  const query = typeof request.query === 'string' ? request.query.trim() : '';
  if (query === '') {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, 'Argument "query" is empty; describe the code you are looking for.');
  }
  if (query.length > limits.maxQueryChars) {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `Argument "query" is ${query.length} characters; at most ${limits.maxQueryChars} are accepted. Shorten it to the essential words or identifiers.`,
    );
  }
  const surrogate = LONE_SURROGATE.exec(query);
  if (surrogate) {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `Argument "query" holds a lone UTF-16 surrogate (\\u${surrogate[0].charCodeAt(0).toString(16)} at character ${surrogate.index + 1}), which is not text; send the query as valid Unicode (a JSON \\u escape of half a character pair is the usual cause).`,
    );
  }
  const limit = request.limit ?? limits.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.maxLimit) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Argument "limit" must be a whole number from 1 to ${limits.maxLimit}; got ${request.limit}.`);
  }
  return { query, limit };
}

/**
 * Creates a retriever. Query path (DESIGN.md): analyse the query (identifiers, file references,
 * intent); scope to a file the query names when exactly one indexed file matches; dense top-k and
 * BM25 top-k (k = candidatePool), plus an exact-symbol list when the query names identifiers; fuse
 * by reciprocal rank fusion (k = 60) over complete rankings of the candidates (each retriever read
 * to {@link COMPLETION_DEPTH} to rank the other's candidates); optionally add file evidence (off by default); weight by intent (prose vs code), test files and
 * side files; let no prior move a chunk more than {@link MAX_DEMOTION} places; cut to the limit.
 * The query's embedding passes through its model's query adapter (query-adapter.ts) before dense search.
 * The last {@link QUERY_CACHE_ENTRIES} query embeddings are kept, so a repeated query costs no model call.
 */
export function createRetriever({ store, getEmbedder, limits, ranking, logger, queryAdapterFor = bundledQueryAdapter, faultLogLevel = 'warn' }: RetrieverOptions): Retriever {
  const steps: RankingOptions = { ...DEFAULT_RANKING, ...ranking };
  const queryVectors = createQueryVectorCache(QUERY_CACHE_ENTRIES);

  // Set once when the bundled query adapter cannot be read: searches go on with the model's own vectors and say so.
  let adapterFault: string | undefined;

  async function queryVector(query: string): Promise<Float32Array> {
    const cached = queryVectors.get(query);
    if (cached !== undefined) return cached;
    const embedder = await getEmbedder();
    let [vector] = await embedder.embed([query]);
    if (steps.queryAdapter && adapterFault === undefined) {
      const { model, dim } = await embedder.info();
      try {
        const adapter = await queryAdapterFor(model, dim);
        if (adapter) vector = adaptQueryVector(adapter, vector!);
      } catch (error) {
        adapterFault = errorMessage(error);
        logger?.[faultLogLevel]({ err: adapterFault }, 'query adapter unavailable; dense retrieval uses the model\'s own query vectors');
      }
    }
    queryVectors.set(query, vector!);
    return vector!;
  }

  async function dense(query: string, filter: SearchFilter, pool: number): Promise<ScoredChunk[]> {
    return store.searchDense(await queryVector(query), { limit: pool, filter });
  }

  return {
    async search(request, trace) {
      const { query, limit } = validate(request, limits);
      const filter: SearchFilter = {};
      if (request.pathPrefix) filter.pathPrefix = request.pathPrefix.replace(/^\.\//, '');
      // Words that may be names (`Client`, a backticked `freeze`) count as identifiers when the symbol table defines them.
      const symbols = memoisedSymbols(store);
      const analysis = steps.symbolMatch
        ? await analyseWithSymbols(symbols, query, filter.pathPrefix)
        : analyseQuery(query);
      if (request.language) filter.language = request.language;
      if (steps.pathScope && !filter.pathPrefix && analysis.fileRefs.length > 0) {
        const scope = resolveFileScope(analysis.fileRefs, (await store.listFiles()).map((f) => f.path));
        if (scope) filter.pathPrefix = scope;
      }
      const pool = Math.max(limits.candidatePool, limit);
      const warnings: string[] = [];
      let mode: SearchMode = request.mode ?? 'hybrid';
      if (!LETTER_OR_DIGIT.test(query)) {
        // Each mode names the retrievers it runs (a trial: dense mode was told about BM25).
        const why = { hybrid: 'BM25 matches nothing and dense retrieval has little meaning to go on', lexical: 'BM25 matches nothing', dense: 'dense retrieval has little meaning to go on' }[mode];
        warnings.push(
          `The query "${query}" has no letters or digits: ${why}, so these results are close to arbitrary. Add the words or identifiers you are looking for.`,
        );
      }
      const lists: ScoredChunk[][] = [];
      // Hybrid reads each retriever deeper than its pool, to rank the other retriever's candidates too.
      const depth = mode === 'hybrid' && steps.completeRanks ? Math.max(pool, COMPLETION_DEPTH) : pool;
      let lexical: ScoredChunk[] = [];
      if (mode !== 'dense') lexical = await store.searchLexical(query, { limit: depth, filter });
      if (mode === 'dense') {
        lists.push(await dense(query, filter, pool));
      } else if (mode === 'hybrid') {
        try {
          lists.push(await dense(query, filter, depth));
        } catch (error) {
          logger?.[faultLogLevel]({ err: errorMessage(error) }, 'dense retrieval failed; falling back to BM25');
          warnings.push(`Dense retrieval unavailable (${errorMessage(error)}); results are BM25 only.`);
          mode = 'lexical';
        }
      }
      if (mode === 'hybrid') lists.push(...(depth > pool ? completeRankings([lists.pop()!, lexical], pool, depth) : [lists.pop()!, lexical]));
      else if (mode === 'lexical') lists.push(lexical.slice(0, pool));
      if (trace) {
        if (mode === 'lexical') trace('bm25', lists[0]!);
        else trace('dense', lists[0]!);
        if (mode === 'hybrid') trace('bm25', lists[1]!);
      }
      let definitionStarts: SymbolHit[] = [];
      if (steps.symbolMatch && mode !== 'dense' && analysis.identifiers.length > 0) {
        const byName = await store.searchLexical(analysis.identifiers.join(' '), { limit: pool, filter });
        const definitions = await Promise.all(
          analysis.identifiers.map((name) => symbols.findSymbols({ name, role: 'definition', limit: DEFINITIONS_PER_NAME, pathPrefix: filter.pathPrefix })),
        );
        definitionStarts = definitions.flat();
        const exact = symbolMatches(analysis.identifiers, [byName, ...lists], definitionStarts);
        if (exact.length > 0) {
          lists.push(exact);
          trace?.('symbol', exact);
        }
      }
      let fused = lists.length === 1 ? lists[0]! : reciprocalRankFusion(lists);
      trace?.('rrf', fused);
      const beforePriors = fused;
      if (steps.fileEvidence) {
        fused = applyFileEvidence(fused);
        trace?.('file', fused);
      }
      if (steps.queryIntent) {
        fused = applyIntent(fused, analysis.intent);
        trace?.('intent', fused);
      }
      // The definition of a name the query asks for keeps its place under the file-kind priors (a fixture, a test-only helper).
      const named = definitionStarts.filter((definition) => definition.kind !== 'test');
      if (steps.testPrior && !analysis.asksForTests && !(filter.pathPrefix && isTestScope(filter.pathPrefix))) {
        fused = applyTestPrior(fused, await testPriorExemption(symbols, query, named, filter.pathPrefix));
        trace?.('tests', fused);
      }
      const sideKinds = steps.sideFilePrior ? sideKindsToWeigh(analysis, filter.pathPrefix) : new Set<SideFileKind>();
      if (sideKinds.size > 0) {
        fused = applySideFilePrior(fused, sideKinds, (hit) => holdsDefinitionStart(hit, named));
        trace?.('side', fused);
      }
      if (steps.demotionCap && fused !== beforePriors) {
        fused = capDemotion(beforePriors, fused, MAX_DEMOTION);
        trace?.('cap', fused);
      }
      const results: SearchHit[] = collapseDuplicates(fused, limit).map(({ chunk, score, alsoAt }) => ({
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        symbol: hitLabel(chunk, definitionStarts),
        scopes: [...chunk.scopes],
        kind: chunk.kind,
        language: chunk.language,
        score: Number(score.toPrecision(6)),
        snippet: makeSnippet(chunk.content, limits.snippetChars, query),
        ...(alsoAt.length > 0 ? { alsoAt } : {}),
      }));
      if (results.length === 0) warnings.push(...(await emptyFilterWarnings(store, request, filter)));
      if (adapterFault !== undefined && mode !== 'lexical') warnings.push(`${adapterFault} Until then dense retrieval uses the model's own query vectors.`);
      return { results, mode, index: await readIndexFreshness(store), warnings };
    },
  };
}
