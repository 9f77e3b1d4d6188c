import type { IndexFreshness } from './index-freshness.js';
import type { RankingTrace, Retriever, SearchRequest, SearchResponse } from './retriever.js';

/**
 * Runs `request` with the index's freshness asked for before the search reads the index, and returns
 * the results with that freshness as their `index`: a run that ends while the search reads the index
 * (it deleted files the results still hold) cannot label them fresh. Used by the CLI, the MCP tool and
 * the gateway, whose `readFreshness` also judges the work tree (HEAD, queued paths, a run in progress).
 * @throws whatever `retriever.search` throws; a failing freshness read is then not awaited
 */
export async function searchWithFreshness(
  retriever: Retriever,
  request: SearchRequest,
  readFreshness: () => Promise<IndexFreshness>,
  trace?: RankingTrace,
): Promise<SearchResponse> {
  const freshness = readFreshness();
  // When the search fails, its error is the answer; this keeps the unread freshness from an unhandled rejection.
  freshness.catch(() => undefined);
  const searched = await retriever.search(request, trace);
  return { ...searched, index: await freshness };
}
