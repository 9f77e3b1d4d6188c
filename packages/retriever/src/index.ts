// Public surface of @monorag/retriever: named exports only.
export {
  createRetriever,
  type Retriever,
  type RetrieverLimits,
  type RetrieverOptions,
  type SearchMode,
  type SearchRequest,
  type SearchResponse,
} from './retriever.js';
export { reciprocalRankFusion, RRF_K } from './reciprocal-rank-fusion.js';
export { readIndexFreshness, type FreshnessProbe, type IndexFreshness } from './index-freshness.js';
export { makeSnippet } from './snippet.js';
export { resolveProjectPath, type ProjectPath } from './project-path.js';
export { readFileContext, type FileContext, type FileContextOptions } from './file-context.js';
