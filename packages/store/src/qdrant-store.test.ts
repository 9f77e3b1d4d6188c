import { existsSync } from 'node:fs';
import { QdrantClient } from '@qdrant/js-client-rest';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, type IndexIdentity } from '@monorag/shared';
import { CONTRACT_IDENTITY, describeChunkStoreContract, type OpenContractStore } from './contract/chunk-store-contract.js';
import { testChunk, testFile } from './contract/fixtures.js';
import { deleteQdrantIndex, openQdrantStore, type QdrantStore } from './qdrant-store.js';
import { chunkSparseVector, querySparseVector, termIndex } from './qdrant/sparse-bm25.js';
import { pointId } from './qdrant/point-id.js';
import { metaPoint } from './qdrant/chunk-payload.js';
import { SPARSE_ANALYZER_KEY } from './qdrant/sparse-analyzer.js';
import { startFakeQdrant, type FakeQdrant } from './qdrant/testing/fake-qdrant-server.js';
import { createOpenApiValidator } from './qdrant/testing/openapi-validator.js';

/** Qdrant's own OpenAPI description (shared/qdrant/openapi.json beside the checkout). */
const SPEC = fileURLToPath(new URL('../../../../shared/qdrant/openapi.json', import.meta.url));
/** The schema lives in the project's shared/ folder beside the checkout, as CI lays it out; CI must have it. */
const HAS_SPEC = existsSync(SPEC);
const MISSING = `Qdrant's OpenAPI schema is missing at ${SPEC}: the request-validation tests need the project's shared/ folder beside the checkout.`;
if (!HAS_SPEC && process.env.CI) throw new Error(MISSING);
const validator = HAS_SPEC ? createOpenApiValidator(SPEC) : undefined;

if (!HAS_SPEC) {
  process.stderr.write(`qdrant-store.test: SKIPPED the fake-Qdrant contract and request-validation tests. ${MISSING}\n`);
  describe('qdrant store request validation', () => {
    it.skip(`skipped: ${MISSING}`, () => {});
  });
}

let fake: Promise<FakeQdrant> | undefined;
const fakeQdrant = (): Promise<FakeQdrant> => (fake ??= startFakeQdrant(validator!));
afterAll(async () => {
  if (fake) await (await fake).close();
});

/** Opens a store for a fresh project; cleanup drops the project's index and cache collections. */
const openOn = (url: () => Promise<string>, apiKey?: string, afterCleanup?: () => Promise<void>): OpenContractStore => async (identity) => {
  const base = { url: await url(), apiKey, project: `contract-${randomUUID()}`, collectionPrefix: `mrt${randomUUID().slice(0, 8)}` };
  const opened: QdrantStore[] = [await openQdrantStore({ ...base, identity })];
  return {
    store: opened[0] as QdrantStore,
    reopen: async (other: IndexIdentity) => {
      const store = await openQdrantStore({ ...base, identity: other });
      opened.push(store);
      return store;
    },
    cleanup: async () => {
      for (const store of opened) await store.close();
      await deleteQdrantIndex(base);
      await afterCleanup?.();
    },
  };
};

// Each test of the suite ends by asserting that every request it made is valid under the OpenAPI description.
if (HAS_SPEC) describeChunkStoreContract('qdrant (in-process fake Qdrant, every request validated against openapi.json)', openOn(
  async () => (await fakeQdrant()).url,
  undefined,
  async () => {
    const server = await fakeQdrant();
    const invalid = server.invalid();
    server.requests.splice(0);
    expect(invalid.map((r) => ({ method: r.method, url: r.url, errors: r.errors.slice(0, 5) }))).toEqual([]);
  },
));

const QDRANT_URL = process.env.QDRANT_URL;
if (QDRANT_URL) {
  describeChunkStoreContract(`qdrant (real server at ${QDRANT_URL})`, openOn(async () => QDRANT_URL, process.env.QDRANT_API_KEY));
} else {
  process.stderr.write(
    `qdrant-store.test: QDRANT_URL is not set, so the ChunkStore contract against a real Qdrant is SKIPPED (${HAS_SPEC ? 'it ran against the validated fake only' : 'and without the OpenAPI schema the fake did not run either'}).\n`,
  );
  describe('ChunkStore contract: qdrant (real server)', () => {
    it.skip('SKIPPED: set QDRANT_URL (and QDRANT_API_KEY if needed) to run the contract suite against a real Qdrant', () => {});
  });
}

describe.skipIf(!HAS_SPEC)('openQdrantStore requests (fake Qdrant)', () => {
  const identity: IndexIdentity = { model: 'm', dim: 3, chunkerVersion: 'c1' };
  const options = async () => ({ url: (await fakeQdrant()).url, project: `p-${randomUUID()}`, collectionPrefix: 'mrq', identity });

  it('creates the collection with a cosine dense vector, an idf bm25 sparse vector and keyword payload indexes, behind the project alias', async () => {
    const server = await fakeQdrant();
    const base = await options();
    const from = server.requests.length;
    const store = await openQdrantStore(base);
    const made = server.requests.slice(from);
    const create = made.find((r) => r.method === 'PUT' && r.url === `/collections/${store.collection}`);
    expect(create?.body).toEqual({ vectors: { dense: { size: 3, distance: 'Cosine' } }, sparse_vectors: { bm25: { modifier: 'idf' } } });
    const indexed = made.filter((r) => r.url.startsWith(`/collections/${store.collection}/index`)).map((r) => r.body);
    expect(indexed).toEqual(
      ['doc', 'path', 'path_prefixes', 'language', 'kind', 'symbols', 'name', 'role'].map((field_name) => ({ field_name, field_schema: 'keyword' })),
    );
    const alias = made.find((r) => r.url === '/collections/aliases');
    expect(alias?.body).toEqual({ actions: [{ create_alias: { collection_name: store.collection, alias_name: `mrq_${base.project}` } }] });
    expect(made.flatMap((r) => r.errors)).toEqual([]);
    await deleteQdrantIndex(base);
  });

  it('hybrid search is one Query API request: dense and bm25 prefetch with the filter, fused by rrf', async () => {
    const server = await fakeQdrant();
    const base = await options();
    const store = await openQdrantStore(base);
    const a = testChunk({ path: 'src/a.ts', startLine: 1, symbol: 'parseHeaders', content: 'function parseHeaders() {}' });
    const b = testChunk({ path: 'src/b.ts', startLine: 1, symbol: 'sendRequest', content: 'function sendRequest() {}' });
    await store.writeFile(testFile('src/a.ts', [a]), [a], [new Float32Array([0, 1, 0])]);
    await store.writeFile(testFile('src/b.ts', [b]), [b], [new Float32Array([1, 0, 0])]);
    const from = server.requests.length;
    const hits = await store.searchHybrid(new Float32Array([0.9, 0.1, 0]), 'parseHeaders', { limit: 5, filter: { pathPrefix: 'src/' } });
    const made = server.requests.slice(from);
    expect(made.map((r) => `${r.method} ${r.url}`)).toEqual([`POST /collections/${store.collection}/points/query`]);
    const body = made[0]?.body as Record<string, unknown>;
    const filter = { must: [{ key: 'doc', match: { value: 'chunk' } }, { key: 'path_prefixes', match: { value: 'src/' } }] };
    expect(body).toEqual({
      prefetch: [
        { query: [Math.fround(0.9), Math.fround(0.1), 0], using: 'dense', filter, limit: 50 },
        { query: querySparseVector('parseHeaders'), using: 'bm25', filter, limit: 50 },
      ],
      query: { rrf: { k: 60 } },
      filter,
      limit: 5,
      with_payload: true,
    });
    expect(made[0]?.errors).toEqual([]);
    // a is first in bm25 and second in dense; b is first in dense only: a wins the fusion.
    expect(hits.map((h) => h.chunk)).toEqual([a, b]);
    await deleteQdrantIndex(base);
  });

  it('writes chunks with deterministic point ids and removes stale ones in one batch whose last step is the manifest entry', async () => {
    const server = await fakeQdrant();
    const base = await options();
    const store = await openQdrantStore(base);
    const first = [testChunk({ path: 'x.ts', startLine: 1 }), testChunk({ path: 'x.ts', startLine: 5 })];
    await store.writeFile(testFile('x.ts', first), first, [new Float32Array([1, 0, 0]), new Float32Array([0, 1, 0])]);
    const from = server.requests.length;
    const next = [first[0]!];
    await store.writeFile(testFile('x.ts', next), next, [new Float32Array([1, 0, 0])]);
    const [batch] = server.requests.slice(from);
    expect(batch?.url).toBe(`/collections/${store.collection}/points/batch?wait=true`);
    const ops = (batch?.body as { operations: Record<string, { points?: { id: string }[] }>[] }).operations;
    expect(ops.map((op) => Object.keys(op)[0])).toEqual(['upsert', 'delete', 'upsert']);
    expect(ops[0]?.upsert?.points?.map((p) => p.id)).toEqual([pointId(`chunk\0${first[0]!.id}`)]);
    expect(ops[2]?.upsert?.points?.[0]?.id).toBe(pointId('file\0x.ts'));
    expect(await store.chunksOfFile('x.ts')).toEqual(next);
    expect(await store.stats()).toEqual({ files: 1, chunks: 1 });
    await deleteQdrantIndex(base);
  });

  it('a search-only open adopts the stored identity; an unknown project is INDEX_NOT_FOUND', async () => {
    const base = await options();
    await openQdrantStore(base);
    const reader = await openQdrantStore({ ...base, identity: undefined });
    expect(reader.identity).toEqual(identity);
    await expect(openQdrantStore({ ...base, project: 'nobody-here', identity: undefined })).rejects.toMatchObject({ code: ErrorCode.INDEX_NOT_FOUND });
    await deleteQdrantIndex(base);
  });

  it('re-encodes the sparse vectors when the recorded term analyzer differs, without touching the dense ones', async () => {
    const server = await fakeQdrant();
    const base = await options();
    const store = await openQdrantStore(base);
    const chunk = testChunk({ path: 'src/retry.ts', startLine: 1, content: 'function retrying() {}' });
    await store.writeFile(testFile('src/retry.ts', [chunk]), [chunk], [new Float32Array([1, 0, 0])]);
    // As an older analyzer left it: another analyzer recorded and a sparse vector without the stemmed term.
    const client = new QdrantClient({ url: server.url, checkCompatibility: false });
    const id = pointId(`chunk\0${chunk.id}`);
    await client.updateVectors(store.collection, { wait: true, points: [{ id, vector: { bm25: { indices: [1], values: [1] } } }] });
    await client.upsert(store.collection, { wait: true, points: [metaPoint(SPARSE_ANALYZER_KEY, 'code-terms-1')] });
    expect(await store.searchLexical('retry', { limit: 5 })).toEqual([]);

    const reopened = await openQdrantStore(base);
    expect((await reopened.searchLexical('retry', { limit: 5 })).map((hit) => hit.chunk.id)).toEqual([chunk.id]);
    const [point] = await client.retrieve(store.collection, { ids: [id], with_vector: true });
    expect((point?.vector as Record<string, unknown>).dense).toEqual([1, 0, 0]);
    expect((point?.vector as Record<string, unknown>).bm25).toEqual(chunkSparseVector(chunk));
    await deleteQdrantIndex(base);
  });

  it('an unreachable Qdrant is STORE_FAILED naming the URL', async () => {
    const error = await openQdrantStore({ url: 'http://127.0.0.1:9', project: 'p', identity: CONTRACT_IDENTITY, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.STORE_FAILED });
    expect((error as Error).message).toContain('Qdrant http://127.0.0.1:9 could not open the index of p');
  });
});

describe('bm25 sparse vectors', () => {
  it('weights symbol x3, path x2, body x1 and saturates term frequency with k1 = 1.2, b = 0.75, avgdl 120', () => {
    const chunk = testChunk({ path: 'ab.ts', startLine: 1, symbol: 'run', content: 'run run' });
    // Terms: symbol [run]; path [ab, ts]; body = header "ab.ts\nrun" + content -> [ab, ts, run, run, run]. dl = 8.
    const { indices, values } = chunkSparseVector(chunk);
    const norm = 1.2 * (1 - 0.75 + (0.75 * 8) / 120);
    const value = (f: number) => (f * 2.2) / (f + norm);
    const got = new Map(indices.map((index, i) => [index, values[i]]));
    expect(got.get(termIndex('run'))).toBeCloseTo(value(3 + 3), 12);
    expect(got.get(termIndex('ab'))).toBeCloseTo(value(2 + 1), 12);
    expect(got.get(termIndex('ts'))).toBeCloseTo(value(2 + 1), 12);
    expect(indices).toHaveLength(3);
    expect([...indices].sort((x, y) => x - y)).toEqual(indices);
  });

  it('the query side is weight 1 per distinct non-stopword term', () => {
    const q = querySparseVector('where is parseHeaders parseHeaders');
    expect(q.indices).toEqual(['parseheaders', 'pars', 'header'].map(termIndex).sort((x, y) => x - y));
    expect(q.values).toEqual([1, 1, 1]);
    expect(querySparseVector('how does the')).toEqual({ indices: [], values: [] });
  });
});

describe.skipIf(!HAS_SPEC)('the OpenAPI request validator', () => {
  it('rejects what Qdrant would reject: unknown operations, wrong types, bad formats, unknown query parameters', () => {
    const bad = (method: string, url: string, body?: unknown) => validator!.check(method, url, body).errors;
    expect(bad('POST', '/collections/c/points/query', { query: { rrf: { k: 60 } }, limit: 5 })).toEqual([]);
    expect(bad('POST', '/collections/c/points/query', { query: { rrf: { k: 0 } } })).not.toEqual([]);
    expect(bad('POST', '/collections/c/points/query', { query: { indices: [-1], values: [1] }, using: 'bm25' })).not.toEqual([]);
    expect(bad('PUT', '/collections/c', { sparse_vectors: { bm25: { modifier: 'bm25' } } })).not.toEqual([]);
    expect(bad('PUT', '/collections/c/points?wait=true', { points: [{ id: 'not-a-uuid', vector: {} }] })).not.toEqual([]);
    expect(bad('PUT', '/collections/c/points?wait=true&sync=1', { points: [] })).toEqual(['query parameter "sync" is not defined for PUT /collections/{collection_name}/points']);
    expect(bad('POST', '/collections/c/points/search_everything', {})).toEqual(['no operation POST /collections/c/points/search_everything in the OpenAPI description']);
    expect(bad('POST', '/collections/aliases', { actions: [{ create_alias: { collection_name: 'c', alias_name: 'a' } }] })).toEqual([]);
  });

  it('the contract scenarios exercised every operation the store uses', async () => {
    const server = await fakeQdrant();
    const base = { url: server.url, project: `ops-${randomUUID()}`, collectionPrefix: 'mro', identity: CONTRACT_IDENTITY };
    const from = server.requests.length;
    const store = await openQdrantStore(base);
    const chunk = testChunk({ path: 'a.ts', startLine: 1, content: 'alpha' });
    await store.writeFile(testFile('a.ts', [chunk]), [chunk], [new Float32Array([1, 0, 0, 0])]);
    await store.putCachedEmbeddings(new Map([['h', new Float32Array([1, 2, 3, 4])]]));
    await store.getCachedEmbeddings(['h']);
    await store.pruneEmbeddingCache(3_600_000);
    await store.searchDense(new Float32Array([1, 0, 0, 0]), { limit: 3 });
    await store.searchLexical('alpha', { limit: 3 });
    await store.searchHybrid(new Float32Array([1, 0, 0, 0]), 'alpha', { limit: 3 });
    await store.listFiles();
    await store.stats();
    await store.setMeta('k', 'v');
    await store.getMeta('k');
    await store.deleteFile('a.ts');
    await deleteQdrantIndex(base);
    const made = server.requests.slice(from);
    expect(made.flatMap((r) => r.errors)).toEqual([]);
    expect(new Set(made.map((r) => `${r.method} ${r.operation}`))).toEqual(
      new Set([
        'GET /aliases',
        'GET /collections/{collection_name}/exists',
        'PUT /collections/{collection_name}',
        'PUT /collections/{collection_name}/index',
        'PUT /collections/{collection_name}/points',
        'POST /collections/aliases',
        'POST /collections/{collection_name}/points',
        'GET /collections/{collection_name}',
        'POST /collections/{collection_name}/points/batch',
        'POST /collections/{collection_name}/points/query',
        'POST /collections/{collection_name}/points/scroll',
        'POST /collections/{collection_name}/points/count',
        'POST /collections/{collection_name}/points/delete',
        'POST /collections/{collection_name}/points/payload',
        'DELETE /collections/{collection_name}',
      ]),
    );
  });
});
