import { QdrantClient } from '@qdrant/js-client-rest';
import { ErrorCode, MonoragError, isMonoragError, type Chunk, type CodeSymbol, type FileRecord, type SymbolHit, type IndexIdentity, type Logger, type ScoredChunk } from '@monorag/shared';
import { checkAge } from './check-age.js';
import type { ChunkStore, QueryOptions, StoreStats, SymbolQuery } from './chunk-store.js';
import { chunkPoint, DENSE_VECTOR, filePoint, filePointId, symbolPoint, metaPoint, metaPointId, payloadChunk, SPARSE_VECTOR, cachePointId, type QdrantPoint } from './qdrant/chunk-payload.js';
import { aliasName, collectionNames } from './qdrant/collection-names.js';
import { chunkFilter, docIs, PATH_PREFIXES_FIELD, type QdrantCondition, type QdrantFilter } from './qdrant/qdrant-filter.js';
import { resolveQdrantCollection } from './qdrant/resolve-collection.js';
import { scrollPages } from './qdrant/scroll-pages.js';
import { ensureSparseAnalyzer } from './qdrant/sparse-analyzer.js';
import { querySparseVector } from './qdrant/sparse-bm25.js';
import { IDENTITY_KEY_PREFIX } from './sqlite/identity.js';
import { MAX_DENSE_LIMIT } from './sqlite/search-dense.js';
import { validateWrite } from './sqlite/write-file.js';

/** Options of {@link openQdrantStore}. */
export interface QdrantStoreOptions {
  /** Qdrant REST URL, e.g. `http://qdrant:6333` (config `store.qdrant.url`, env `QDRANT_URL`). */
  url: string;
  /** API key sent as `api-key` (env `QDRANT_API_KEY`). */
  apiKey?: string;
  /** Project key: every machine indexing or searching the same project must use the same one. */
  project: string;
  /**
   * The identity to index with. Given: creates the project's collection when there is none, or checks
   * it against the current one. Omitted (search): adopts the current collection's identity.
   */
  identity?: IndexIdentity;
  /** Prefix of every collection and alias name; default `monorag`. */
  collectionPrefix?: string;
  /** Points per upsert request; default 256. */
  batchSize?: number;
  /** Per-request time-out in milliseconds; default 60000. */
  timeoutMs?: number;
  logger?: Logger;
}

/** Options of a hybrid query. */
export interface HybridQueryOptions extends QueryOptions {
  /** Candidates taken from each of dense and BM25 before fusion; default 50. */
  candidates?: number;
}

/** The team-stack {@link ChunkStore}: one Qdrant collection per project and index identity. */
export interface QdrantStore extends ChunkStore {
  /** Name of the collection holding this index. */
  readonly collection: string;
  /**
   * Hybrid search in one round trip (Query API): the dense and the `bm25` candidates are prefetched
   * with the filter and fused by reciprocal rank fusion (Qdrant's RRF, k = 60 as in the retriever).
   * Score is the RRF score (higher is better). With a query without terms, only the dense side ranks.
   * `vector` is the query vector as dense search would use it: the retriever's, after its model's query
   * adapter (retriever's query-adapter.ts), not the embedder's raw output. The retriever does not call this.
   */
  searchHybrid(vector: Float32Array, query: string, options: HybridQueryOptions): Promise<ScoredChunk[]>;
}

/** RRF constant sent to Qdrant; 60 as in Cormack, Clarke & Buettcher (SIGIR 2009) and the retriever. */
export const QDRANT_RRF_K = 60;

const SCROLL_PAGE = 1000;
/** Payload field of a cache point: when it was last written or hit, in ms since the epoch. */
const CACHE_USED_AT = 'usedAt';

/**
 * Opens the Qdrant index of `project`. The project's alias `<prefix>_<project>` names its current
 * collection; a collection holds the chunk points (dense + sparse `bm25` vectors, payload), the
 * manifest (one vector-less point per file) and metadata (vector-less points, including the identity),
 * so index state and vectors live and go together. Embeddings are cached per model in a shared
 * collection `<prefix>_embcache_<hash>`. Several processes may open the same project at once.
 * @throws MonoragError `INDEX_NOT_FOUND` (no identity given and no index), `INDEX_IDENTITY_MISMATCH`
 *   (the project's collection holds another identity or dimension; says how to re-index),
 *   `INVALID_ARGUMENT` (bad dimension), `STORE_FAILED` (Qdrant unreachable or refusing).
 */
export async function openQdrantStore({
  url,
  apiKey,
  project,
  identity: requested,
  collectionPrefix = 'monorag',
  batchSize = 256,
  timeoutMs = 60_000,
  logger,
}: QdrantStoreOptions): Promise<QdrantStore> {
  if (requested !== undefined && (!Number.isInteger(requested.dim) || requested.dim <= 0)) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Embedding dimension must be a positive integer, got ${requested.dim}.`);
  }
  const client = new QdrantClient({ url, apiKey, timeout: timeoutMs, checkCompatibility: false });
  const where = `Qdrant ${url}`;
  const { collection, identity } = await guardQdrant(where, `open the index of ${project}`, () =>
    resolveQdrantCollection({ client, prefix: collectionPrefix, project, requested, logger }),
  );
  await guardQdrant(where, `update the lexical index of ${project}`, () => ensureSparseAnalyzer(client, collection, batchSize, logger));
  const names = collectionNames(collectionPrefix, project, identity);
  return createQdrantStore({ client, where, collection, cache: names.cache, identity, batchSize });
}

/**
 * Deletes the index of `project` (its current collection and alias) so the next `index` run builds it
 * anew; the shared embedding cache stays. A no-op when the project has no index.
 * @throws MonoragError `STORE_FAILED` when Qdrant refuses.
 */
export async function deleteQdrantIndex({ url, apiKey, project, collectionPrefix = 'monorag' }: Omit<QdrantStoreOptions, 'identity'>): Promise<void> {
  const client = new QdrantClient({ url, apiKey, checkCompatibility: false });
  const alias = aliasName(collectionPrefix, project);
  await guardQdrant(`Qdrant ${url}`, `delete the index of ${project}`, async () => {
    const { aliases } = await client.getAliases();
    for (const entry of aliases.filter((a) => a.alias_name === alias)) {
      await client.updateCollectionAliases({ actions: [{ delete_alias: { alias_name: alias } }] });
      await client.deleteCollection(entry.collection_name);
    }
  });
}

/** Runs `fn`; a MonoragError passes through, any other error becomes `STORE_FAILED` naming the server and the action. */
export async function guardQdrant<T>(where: string, action: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isMonoragError(error)) throw error;
    throw new MonoragError(
      ErrorCode.STORE_FAILED,
      `${where} could not ${action}: ${(error as Error).message}. Check that Qdrant is running and QDRANT_URL / QDRANT_API_KEY are right.`,
      { cause: error },
    );
  }
}

interface StoreParts {
  client: QdrantClient;
  where: string;
  collection: string;
  cache: string;
  identity: IndexIdentity;
  batchSize: number;
}

function createQdrantStore({ client, where, collection, cache, identity, batchSize }: StoreParts): QdrantStore {
  const guard = <T>(action: string, fn: () => Promise<T>): Promise<T> => guardQdrant(where, action, fn);
  const checkLimit = (limit: number): void => {
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_DENSE_LIMIT) {
      throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `limit must be an integer from 0 to ${MAX_DENSE_LIMIT}, got ${limit}.`);
    }
  };
  const checkVector = (vector: Float32Array): void => {
    if (vector.length !== identity.dim) {
      throw new MonoragError(
        ErrorCode.INVALID_ARGUMENT,
        `The query vector has ${vector.length} dimensions but the index expects ${identity.dim} (model "${identity.model}").`,
      );
    }
  };
  const upsert = async (name: string, points: QdrantPoint[]): Promise<void> => {
    for (let i = 0; i < points.length; i += batchSize) {
      await client.upsert(name, { wait: true, points: points.slice(i, i + batchSize) });
    }
  };
  const scrollAll = async (filter: QdrantFilter): Promise<Record<string, unknown>[]> => {
    const out: Record<string, unknown>[] = [];
    for await (const page of scrollPages(client, collection, filter, { pageSize: SCROLL_PAGE })) {
      for (const point of page) out.push(point.payload ?? {});
    }
    return out;
  };
  const count = async (filter: QdrantFilter): Promise<number> => (await client.count(collection, { filter, exact: true })).count;
  const toHits = (points: { score: number; payload?: Record<string, unknown> | null }[]): ScoredChunk[] =>
    points.map((point) => ({ chunk: payloadChunk(point.payload), score: point.score }));
  const byPath = (path: string) => ({ key: 'path', match: { value: path } });

  return {
    identity,
    collection,

    listFiles: () =>
      guard('list files', async () =>
        (await scrollAll({ must: [docIs('file')] }))
          .map((payload) => payload.file as FileRecord)
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      ),

    getFile: (path) =>
      guard('read the manifest', async () => {
        const [found] = await scrollAll({ must: [docIs('file'), byPath(path)] });
        return found?.file as FileRecord | undefined;
      }),

    writeFile: (record: FileRecord, chunks: Chunk[], vectors: Float32Array[], symbols: readonly CodeSymbol[] = []) =>
      guard(`store ${record.path}`, async () => {
        validateWrite(identity, record, chunks, vectors);
        const points = [
          ...chunks.map((chunk, i) => chunkPoint(chunk, vectors[i] as Float32Array)),
          ...symbols.map((symbol, i) => symbolPoint(record.path, symbol, i)),
        ];
        // New points first, then (one request) the stale chunks and symbols go and the manifest entry is
        // written last: a crash in between leaves the old manifest hash, so the next run redoes the file.
        const head = points.slice(0, Math.max(0, points.length - batchSize));
        await upsert(collection, head);
        const tail = points.slice(head.length);
        const keep = [...points.map((p) => p.id), filePointId(record.path)];
        await client.batchUpdate(collection, {
          wait: true,
          operations: [
            ...(tail.length > 0 ? [{ upsert: { points: tail } }] : []),
            { delete: { filter: { must: [byPath(record.path)], must_not: [{ has_id: keep }] } } },
            { upsert: { points: [filePoint({ ...record, chunkCount: chunks.length })] } },
          ],
        });
      }),

    setFileIndexedAt: (path, contentHash, indexedAt) =>
      guard(`record the read time of ${path}`, async () => {
        // One request conditional on its filter, setting `indexedAt` inside the `file` payload: the entry is
        // not read and written back, so a writeFile of the path in between is never undone.
        await client.setPayload(collection, {
          wait: true,
          key: 'file',
          payload: { indexedAt },
          filter: {
            must: [
              docIs('file'),
              byPath(path),
              { key: 'file.contentHash', match: { value: contentHash } },
              { key: 'file.indexedAt', range: { lt: indexedAt } },
            ],
          },
        });
      }),

    findSymbols: ({ name, role, limit, pathPrefix }: SymbolQuery) =>
      guard('read the symbol table', async () => {
        if (!Number.isInteger(limit) || limit < 0) {
          throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `limit must be a non-negative integer, got ${limit}.`);
        }
        const must: QdrantCondition[] = [docIs('symbol'), { key: 'name', match: { value: name } }, { key: 'role', match: { value: role } }];
        if (pathPrefix) must.push({ key: PATH_PREFIXES_FIELD, match: { value: pathPrefix } });
        return (await scrollAll({ must }))
          .map((payload) => payload.symbol as SymbolHit)
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine || a.endLine - b.endLine))
          .slice(0, limit);
      }),

    deleteFile: (path) =>
      guard(`delete ${path}`, async () => {
        await client.delete(collection, { wait: true, filter: { must: [byPath(path)] } });
      }),

    searchDense: (vector: Float32Array, options: QueryOptions) =>
      guard('run a dense search', async () => {
        checkVector(vector);
        checkLimit(options.limit);
        if (options.limit === 0) return [];
        const { points } = await client.query(collection, {
          query: Array.from(vector),
          using: DENSE_VECTOR,
          filter: chunkFilter(options.filter),
          limit: options.limit,
          with_payload: true,
        });
        return toHits(points);
      }),

    searchLexical: (query: string, options: QueryOptions) =>
      guard('run a lexical search', async () => {
        checkLimit(options.limit);
        const sparse = querySparseVector(query);
        if (sparse.indices.length === 0 || options.limit === 0) return [];
        const { points } = await client.query(collection, {
          query: sparse,
          using: SPARSE_VECTOR,
          filter: chunkFilter(options.filter),
          limit: options.limit,
          with_payload: true,
        });
        return toHits(points);
      }),

    searchHybrid: (vector: Float32Array, query: string, options: HybridQueryOptions) =>
      guard('run a hybrid search', async () => {
        checkVector(vector);
        checkLimit(options.limit);
        const candidates = options.candidates ?? 50;
        checkLimit(candidates);
        if (options.limit === 0) return [];
        const filter = chunkFilter(options.filter);
        const sparse = querySparseVector(query);
        const prefetch = [
          { query: Array.from(vector), using: DENSE_VECTOR, filter, limit: candidates },
          ...(sparse.indices.length > 0 ? [{ query: sparse, using: SPARSE_VECTOR, filter, limit: candidates }] : []),
        ];
        const { points } = await client.query(collection, {
          prefetch,
          query: { rrf: { k: QDRANT_RRF_K } },
          filter,
          limit: options.limit,
          with_payload: true,
        });
        return toHits(points);
      }),

    chunksOfFile: (path) =>
      guard(`read the chunks of ${path}`, async () =>
        (await scrollAll({ must: [docIs('chunk'), byPath(path)] }))
          .map(payloadChunk)
          .sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine),
      ),

    vectorsOfFile: (path) =>
      guard(`read the vectors of ${path}`, async () => {
        const out = new Map<string, Float32Array>();
        const filter = { must: [docIs('chunk'), byPath(path)] };
        for await (const page of scrollPages(client, collection, filter, { pageSize: SCROLL_PAGE, withVectors: [DENSE_VECTOR] })) {
          for (const point of page) {
            const vector = (point.vector as Record<string, number[]> | null | undefined)?.[DENSE_VECTOR];
            if (Array.isArray(vector)) out.set(payloadChunk(point.payload).id, Float32Array.from(vector));
          }
        }
        return out;
      }),

    getCachedEmbeddings: (contentHashes) =>
      guard('read the embedding cache', async () => {
        const out = new Map<string, Float32Array>();
        const unique = [...new Set(contentHashes)];
        for (let i = 0; i < unique.length; i += SCROLL_PAGE) {
          const ids = unique.slice(i, i + SCROLL_PAGE).map(cachePointId);
          const points = await client.retrieve(cache, { ids, with_payload: true, with_vector: true });
          for (const point of points) {
            const hash = point.payload?.contentHash;
            const vector = (point.vector as Record<string, number[]> | null | undefined)?.[DENSE_VECTOR];
            if (typeof hash === 'string' && Array.isArray(vector)) out.set(hash, Float32Array.from(vector));
          }
          // A hit is a use: it restarts the entry's age for pruneEmbeddingCache.
          if (points.length > 0) await client.setPayload(cache, { wait: false, payload: { [CACHE_USED_AT]: Date.now() }, points: points.map((p) => p.id) });
        }
        return out;
      }),

    putCachedEmbeddings: (entries) =>
      guard('write the embedding cache', async () => {
        for (const [hash, vector] of entries) {
          if (vector.length !== identity.dim) {
            throw new MonoragError(
              ErrorCode.INVALID_ARGUMENT,
              `Cannot cache the embedding of ${hash}: ${vector.length} dimensions but the index expects ${identity.dim} (model "${identity.model}").`,
            );
          }
        }
        await upsert(
          cache,
          [...entries].map(([hash, vector]) => ({
            id: cachePointId(hash),
            vector: { [DENSE_VECTOR]: Array.from(vector) },
            payload: { contentHash: hash, model: identity.model, [CACHE_USED_AT]: Date.now() },
          })),
        );
      }),

    pruneEmbeddingCache: (olderThanMs) =>
      guard('prune the embedding cache', async () => {
        checkAge(olderThanMs);
        const before = (await client.count(cache, { exact: true })).count;
        await client.delete(cache, { wait: true, filter: { must: [{ key: CACHE_USED_AT, range: { lt: Date.now() - olderThanMs } }] } });
        const kept = (await client.count(cache, { exact: true })).count;
        return { removed: before - kept, kept };
      }),

    getMeta: (key) =>
      guard('read metadata', async () => {
        const [point] = await client.retrieve(collection, { ids: [metaPointId(key)], with_payload: true, with_vector: false });
        const value = point?.payload?.value;
        return typeof value === 'string' ? value : undefined;
      }),

    setMeta: (key, value) =>
      guard('write metadata', async () => {
        if (key.startsWith(IDENTITY_KEY_PREFIX)) {
          throw new MonoragError(
            ErrorCode.INVALID_ARGUMENT,
            `Metadata keys starting with "${IDENTITY_KEY_PREFIX}" are reserved for the index identity: ${key}.`,
          );
        }
        await client.upsert(collection, { wait: true, points: [metaPoint(key, value)] });
      }),

    stats: () =>
      guard('count its contents', async (): Promise<StoreStats> => ({
        files: await count({ must: [docIs('file')] }),
        chunks: await count({ must: [docIs('chunk')] }),
      })),

    close: async () => {
      // The REST client holds no connection that needs closing (undici's pool closes idle sockets itself).
    },
  };
}
