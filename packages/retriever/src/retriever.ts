import { ErrorCode, MonoragError, errorMessage, type Logger, type ScoredChunk, type SearchHit } from '@monorag/shared';
import type { Embedder } from '@monorag/embedder-client';
import type { ChunkStore, SearchFilter } from '@monorag/store';
import { readIndexFreshness, type IndexFreshness } from './index-freshness.js';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.js';
import { makeSnippet } from './snippet.js';

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
  logger?: Logger;
}

/** Hybrid retrieval over one project's index. */
export interface Retriever {
  /**
   * @throws MonoragError `INVALID_ARGUMENT` naming `query` or `limit`; `EMBEDDER_UNAVAILABLE` in
   *   `dense` mode when the embedder fails (hybrid mode falls back to BM25 with a warning instead).
   */
  search(request: SearchRequest): Promise<SearchResponse>;
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
  const limit = request.limit ?? limits.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.maxLimit) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Argument "limit" must be a whole number from 1 to ${limits.maxLimit}; got ${request.limit}.`);
  }
  return { query, limit };
}

/** Creates a retriever: dense top-k and BM25 top-k, fused by reciprocal rank fusion (k = 60). */
export function createRetriever({ store, getEmbedder, limits, logger }: RetrieverOptions): Retriever {
  async function dense(query: string, filter: SearchFilter, pool: number): Promise<ScoredChunk[]> {
    const embedder = await getEmbedder();
    const [vector] = await embedder.embed([query]);
    return store.searchDense(vector!, { limit: pool, filter });
  }

  return {
    async search(request) {
      const { query, limit } = validate(request, limits);
      const filter: SearchFilter = {};
      if (request.pathPrefix) filter.pathPrefix = request.pathPrefix.replace(/^\.\//, '');
      if (request.language) filter.language = request.language;
      const pool = Math.max(limits.candidatePool, limit);
      const warnings: string[] = [];
      let mode: SearchMode = request.mode ?? 'hybrid';
      let fused: ScoredChunk[];
      if (mode === 'lexical') {
        fused = await store.searchLexical(query, { limit: pool, filter });
      } else if (mode === 'dense') {
        fused = await dense(query, filter, pool);
      } else {
        const lexical = await store.searchLexical(query, { limit: pool, filter });
        let denseHits: ScoredChunk[];
        try {
          denseHits = await dense(query, filter, pool);
        } catch (error) {
          logger?.warn({ err: errorMessage(error) }, 'dense retrieval failed; falling back to BM25');
          warnings.push(`Dense retrieval unavailable (${errorMessage(error)}); results are BM25 only.`);
          denseHits = [];
          mode = 'lexical';
        }
        fused = mode === 'lexical' ? lexical : reciprocalRankFusion([denseHits, lexical]);
      }
      const results: SearchHit[] = fused.slice(0, limit).map(({ chunk, score }) => ({
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        symbol: chunk.symbol,
        kind: chunk.kind,
        language: chunk.language,
        score: Number(score.toFixed(6)),
        snippet: makeSnippet(chunk.content, limits.snippetChars),
      }));
      return { results, mode, index: await readIndexFreshness(store), warnings };
    },
  };
}
