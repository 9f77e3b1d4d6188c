// Public surface of @monorag/retriever: named exports only.
export {
  createRetriever,
  RANKING_STAGES,
  type RankingStage,
  type RankingTrace,
  type Retriever,
  type RetrieverLimits,
  type RetrieverOptions,
  type SearchMode,
  type SearchRequest,
  type SearchResponse,
} from './retriever.js';
export { reciprocalRankFusion, RRF_K } from './reciprocal-rank-fusion.js';
export { completeRankings, COMPLETION_DEPTH } from './complete-rankings.js';
export { analyseQuery, type QueryAnalysis, type QueryIntent } from './analyse-query.js';
export { analyseWithSymbols } from './analyse-with-symbols.js';
export { DEFAULT_RANKING, INTENT_FACTORS, isReferenceChunk, MAX_DEMOTION, PROSE_LANGUAGES, TEST_FACTOR, type RankingOptions } from './ranking-options.js';
export { capDemotion } from './cap-demotion.js';
export { symbolMatches, normaliseSymbol } from './symbol-matches.js';
export { applyIntent } from './apply-intent.js';
export { applyTestPrior } from './apply-test-prior.js';
export { isTestPath } from './test-paths.js';
export { applyFileEvidence, FILE_EVIDENCE_WEIGHT } from './apply-file-evidence.js';
export { resolveFileScope } from './resolve-file-scope.js';
export { adaptQueryVector, BUNDLED_QUERY_ADAPTERS, bundledQueryAdapter, QUERY_ADAPTER_DIR, readQueryAdapter, type QueryAdapter } from './query-adapter.js';
export { queryAdapterStatus, type QueryAdapterStatus } from './query-adapter-status.js';
export { readIndexFreshness, type FreshnessProbe, type IndexFreshness, type QueueBacklog } from './index-freshness.js';
export { searchWithFreshness } from './search-with-freshness.js';
export { makeSnippet, matchingLine, SNIPPET_GAP } from './snippet.js';
export { stageRanks, type StageRanks } from './stage-ranks.js';
export { resolveProjectPath, type ProjectPath } from './project-path.js';
export { resolvePathPrefix } from './resolve-path-prefix.js';
export { readFileContext, type FileContext, type FileContextOptions } from './file-context.js';
