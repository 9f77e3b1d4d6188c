import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, type Chunk, type IndexIdentity } from '@monorag/shared';
import type { ChunkStore } from '../chunk-store.js';
import { cosine, testChunk, testFile, type TestChunkInput } from './fixtures.js';

/** One store under test, as the contract suite's `open` returns it. */
export interface ContractStoreHandle {
  store: ChunkStore;
  /** Opens the same backing index again (same file, collection...) with `identity`. */
  reopen(identity: IndexIdentity): Promise<ChunkStore>;
  /** Closes the store(s) and removes the backing index. */
  cleanup(): Promise<void>;
}

/** Creates an empty store for `identity`. Called before every test. */
export type OpenContractStore = (identity: IndexIdentity) => Promise<ContractStoreHandle>;

/** The identity the contract suite opens stores with: 4-dimensional vectors. */
export const CONTRACT_IDENTITY: IndexIdentity = { model: 'contract-model', dim: 4, chunkerVersion: 'contract-1' };

const v = (...xs: number[]): Float32Array => new Float32Array(xs);

/**
 * The behaviour every {@link ChunkStore} implementation must have, as a vitest suite named `name`:
 * manifest, replace and delete semantics, re-stamping an unchanged file, exact dense and lexical
 * ranking, filters, embedding cache, metadata, identity checks and vector validation. Call it at the
 * top level of an implementation's test file; `open` gets {@link CONTRACT_IDENTITY} and must return an
 * empty store.
 */
export function describeChunkStoreContract(name: string, open: OpenContractStore): void {
  describe(`ChunkStore contract: ${name}`, () => {
    let handle: ContractStoreHandle;
    let store: ChunkStore;

    beforeEach(async () => {
      handle = await open(CONTRACT_IDENTITY);
      store = handle.store;
    });
    afterEach(async () => {
      await handle.cleanup();
    });

    /** Writes one file made of `inputs` with the given vectors (default: one-hot by index). */
    async function put(path: string, inputs: Omit<TestChunkInput, 'path'>[], vectors?: Float32Array[], language?: string) {
      const chunks = inputs.map((input) => testChunk({ language, ...input, path }));
      const vecs = vectors ?? chunks.map((_, i) => v(...[0, 1, 2, 3].map((d) => (d === i % 4 ? 1 : 0))));
      const file = testFile(path, chunks, language);
      await store.writeFile(file, chunks, vecs);
      return { file, chunks };
    }
    const ids = (hits: { chunk: Chunk }[]): string[] => hits.map((hit) => hit.chunk.id);

    it('writes and reads the manifest and the chunks of a file', async () => {
      const b = await put('src/b.ts', [{ startLine: 1 }]);
      const a = await put('src/a.ts', [{ startLine: 10 }, { startLine: 1 }]);
      expect(await store.listFiles()).toEqual([a.file, b.file]);
      expect(await store.getFile('src/a.ts')).toEqual(a.file);
      expect(await store.getFile('src/none.ts')).toBeUndefined();
      expect(await store.chunksOfFile('src/a.ts')).toEqual([a.chunks[1], a.chunks[0]]);
      expect(await store.chunksOfFile('src/none.ts')).toEqual([]);
      expect(await store.stats()).toEqual({ files: 2, chunks: 3 });
    });

    it('writeFile replaces every previous chunk of the file', async () => {
      await put('src/a.ts', [
        { startLine: 1, content: 'walrus' },
        { startLine: 5, content: 'narwhal' },
        { startLine: 9, content: 'pelican' },
      ], [v(1, 0, 0, 0), v(0, 1, 0, 0), v(0, 0, 1, 0)]);
      const next = await put('src/a.ts', [{ startLine: 2, content: 'penguin' }], [v(0, 0, 0, 1)]);
      expect(await store.chunksOfFile('src/a.ts')).toEqual(next.chunks);
      expect(await store.getFile('src/a.ts')).toEqual(next.file);
      expect(await store.stats()).toEqual({ files: 1, chunks: 1 });
      expect(ids(await store.searchDense(v(1, 0, 0, 0), { limit: 10 }))).toEqual(ids([{ chunk: next.chunks[0] as Chunk }]));
      expect(await store.searchLexical('walrus', { limit: 10 })).toEqual([]);
      expect(ids(await store.searchLexical('penguin', { limit: 10 }))).toEqual([next.chunks[0]?.id]);
    });

    it('deleteFile removes the chunks and the manifest entry; unknown paths are a no-op', async () => {
      await put('src/a.ts', [{ startLine: 1, content: 'sharedWord' }], [v(1, 0, 0, 0)]);
      const b = await put('src/b.ts', [{ startLine: 1, content: 'sharedWord' }], [v(0, 1, 0, 0)]);
      await store.deleteFile('src/a.ts');
      await store.deleteFile('src/unknown.ts');
      expect(await store.listFiles()).toEqual([b.file]);
      expect(await store.chunksOfFile('src/a.ts')).toEqual([]);
      expect(ids(await store.searchDense(v(1, 0, 0, 0), { limit: 10 }))).toEqual([b.chunks[0]?.id]);
      expect(ids(await store.searchLexical('sharedWord', { limit: 10 }))).toEqual([b.chunks[0]?.id]);
      expect(await store.stats()).toEqual({ files: 1, chunks: 1 });
    });

    it('setFileIndexedAt raises the stamp of an entry of that content and writes nothing else; another content, an earlier stamp and an unknown path are no-ops', async () => {
      const a = await put('src/a.ts', [{ startLine: 1, content: 'walrus' }, { startLine: 5, content: 'narwhal' }], [v(1, 0, 0, 0), v(0, 1, 0, 0)]);
      const b = await put('src/b.ts', [{ startLine: 1, content: 'pelican' }], [v(0, 0, 1, 0)]);
      const vectors = await store.vectorsOfFile('src/a.ts');
      const later = a.file.indexedAt + 60_000;

      await store.setFileIndexedAt('src/a.ts', a.file.contentHash, later);
      expect(await store.getFile('src/a.ts')).toEqual({ ...a.file, indexedAt: later });
      expect(await store.chunksOfFile('src/a.ts')).toEqual(a.chunks);
      expect(await store.vectorsOfFile('src/a.ts')).toEqual(vectors);
      expect(ids(await store.searchLexical('narwhal', { limit: 10 }))).toEqual([a.chunks[1]?.id]);
      expect(ids(await store.searchDense(v(1, 0, 0, 0), { limit: 1 }))).toEqual([a.chunks[0]?.id]);

      // Never lowered; another content hash (the file was re-indexed meanwhile) keeps its own stamp.
      await store.setFileIndexedAt('src/a.ts', a.file.contentHash, later - 1000);
      await store.setFileIndexedAt('src/a.ts', 'f'.repeat(64), later + 1000);
      expect((await store.getFile('src/a.ts'))?.indexedAt).toBe(later);
      // An unknown path gets no entry.
      await store.setFileIndexedAt('src/none.ts', a.file.contentHash, later);
      expect(await store.listFiles()).toEqual([{ ...a.file, indexedAt: later }, b.file]);
      expect(await store.stats()).toEqual({ files: 2, chunks: 3 });
    });

    it('dense search ranks by cosine similarity and reports it as the score', async () => {
      const vectors = [v(1, 0, 0, 0), v(0, 1, 0, 0), v(1, 1, 0, 0), v(-1, 0, 0, 0)];
      const { chunks } = await put('src/a.ts', [{ startLine: 1 }, { startLine: 5 }, { startLine: 9 }, { startLine: 13 }], vectors);
      const query = v(1, 0.5, 0, 0);
      const hits = await store.searchDense(query, { limit: 10 });
      expect(ids(hits)).toEqual([2, 0, 1, 3].map((i) => chunks[i]?.id));
      hits.forEach((hit, rank) => {
        const i = [2, 0, 1, 3][rank] as number;
        expect(hit.score).toBeCloseTo(cosine(query, vectors[i] as Float32Array), 6);
      });
      expect(hits.map((hit) => Number(hit.score.toFixed(4)))).toEqual([0.9487, 0.8944, 0.4472, -0.8944]);
      expect(ids(await store.searchDense(query, { limit: 2 }))).toEqual([chunks[2]?.id, chunks[0]?.id]);
      expect(await store.searchDense(query, { limit: 0 })).toEqual([]);
    });

    describe('lexical search', () => {
      let definition: Chunk;
      let caller: Chunk;
      beforeEach(async () => {
        definition = (await put('src/http/headers.ts', [{
          startLine: 1,
          symbol: 'parseHeaders',
          content: 'export function parseHeaders(raw: string): Headers {\n  return new Headers(raw);\n}',
        }])).chunks[0] as Chunk;
        caller = (await put('src/http/request.ts', [{
          startLine: 1,
          symbol: 'sendRequest',
          content: 'export function sendRequest(raw: string) {\n  const parsed = parseHeaders(raw);\n  log(parseHeaders(raw));\n  return fetch(parsed);\n}',
        }])).chunks[0] as Chunk;
        for (let i = 0; i < 8; i++) {
          await put(`src/util/format${i}.ts`, [{
            startLine: 1,
            symbol: `formatValue${i}`,
            content: `export function formatValue${i}(value: number): string {\n  return value.toFixed(${i});\n}`,
          }]);
        }
      });

      it('finds a chunk by its identifier or by the identifier parts', async () => {
        const byParts = await store.searchLexical('parse headers', { limit: 10 });
        expect(ids(byParts).slice(0, 2)).toEqual([definition.id, caller.id]);
        const byName = await store.searchLexical('parseHeaders', { limit: 10 });
        expect(ids(byName)).toEqual([definition.id, caller.id]);
        for (const hit of [...byParts, ...byName]) expect(hit.score).toBeGreaterThan(0);
      });

      it('ranks a symbol match above a body-only mention', async () => {
        const [first, second] = await store.searchLexical('where is parseHeaders', { limit: 2 });
        expect(first?.chunk.id).toBe(definition.id);
        expect(second?.chunk.id).toBe(caller.id);
        expect((first?.score ?? 0) > (second?.score ?? 0)).toBe(true);
      });

      it('returns [] for a query without terms and never fails on FTS syntax', async () => {
        expect(await store.searchLexical('how does the', { limit: 10 })).toEqual([]);
        expect(await store.searchLexical('  ?! ', { limit: 10 })).toEqual([]);
        const hits = await store.searchLexical('parseHeaders" OR * NEAR( AND "col:x', { limit: 1 });
        expect(ids(hits)).toEqual([definition.id]);
      });
    });

    describe('filters', () => {
      let lib: Chunk;
      let libx: Chunk;
      let libPy: Chunk;
      let odd: Chunk;
      beforeEach(async () => {
        [lib] = (await put('lib/a.ts', [{ startLine: 1, content: 'sharedWord one' }], [v(0.8, 0.6, 0, 0)])).chunks as [Chunk];
        [libx] = (await put('libx/a.ts', [{ startLine: 1, content: 'sharedWord sharedWord sharedWord' }], [v(1, 0, 0, 0)])).chunks as [Chunk];
        [libPy] = (await put('lib/b.py', [{ startLine: 1, content: 'sharedWord two' }], [v(0.6, 0.8, 0, 0)], 'python')).chunks as [Chunk];
        [odd] = (await put('lib_%/c.ts', [{ startLine: 1, content: 'sharedWord three' }], [v(0, 0, 1, 0)])).chunks as [Chunk];
      });

      it('pathPrefix is a plain string prefix under both searches', async () => {
        const q = v(1, 0, 0, 0);
        expect(ids(await store.searchDense(q, { limit: 10 }))).toEqual([libx.id, lib.id, libPy.id, odd.id]);
        expect(ids(await store.searchDense(q, { limit: 1, filter: { pathPrefix: 'lib/' } }))).toEqual([lib.id]);
        expect(ids(await store.searchDense(q, { limit: 10, filter: { pathPrefix: 'lib/' } }))).toEqual([lib.id, libPy.id]);
        expect(ids(await store.searchDense(q, { limit: 10, filter: { pathPrefix: 'lib_%/' } }))).toEqual([odd.id]);
        expect(ids(await store.searchDense(q, { limit: 10, filter: { pathPrefix: 'lib' } }))).toEqual([libx.id, lib.id, libPy.id, odd.id]);
        expect(await store.searchDense(q, { limit: 10, filter: { pathPrefix: 'src/' } })).toEqual([]);

        const lexical = async (pathPrefix: string) =>
          ids(await store.searchLexical('sharedWord', { limit: 10, filter: { pathPrefix } })).sort();
        expect(ids(await store.searchLexical('sharedWord', { limit: 1 }))).toEqual([libx.id]);
        expect(await lexical('lib/')).toEqual([lib.id, libPy.id].sort());
        expect(await lexical('lib_%/')).toEqual([odd.id]);
        expect(await lexical('lib_')).toEqual([odd.id]);
        expect(await lexical('libx/a.ts')).toEqual([libx.id]);
      });

      it('language filters alone and with a path prefix under both searches', async () => {
        const q = v(1, 0, 0, 0);
        expect(ids(await store.searchDense(q, { limit: 10, filter: { language: 'python' } }))).toEqual([libPy.id]);
        expect(ids(await store.searchDense(q, { limit: 1, filter: { language: 'typescript', pathPrefix: 'lib/' } }))).toEqual([lib.id]);
        expect(ids(await store.searchLexical('sharedWord', { limit: 10, filter: { language: 'python' } }))).toEqual([libPy.id]);
        expect(ids(await store.searchLexical('sharedWord', { limit: 10, filter: { language: 'typescript', pathPrefix: 'lib/' } }))).toEqual([lib.id]);
        expect(await store.searchLexical('sharedWord', { limit: 10, filter: { language: 'rust' } })).toEqual([]);
      });
    });

    describe('symbol table', () => {
      const def = (name: string, startLine: number, enclosing: string | null = null) =>
        ({ name, kind: 'function', role: 'definition' as const, startLine, endLine: startLine + 2, enclosing });
      const call = (name: string, line: number, enclosing: string | null) =>
        ({ name, kind: 'call', role: 'reference' as const, startLine: line, endLine: line, enclosing });

      it('stores symbols with the file, finds them by exact name and role, and replaces them with the file', async () => {
        const chunks = [testChunk({ path: 'src/a.ts', startLine: 1 })];
        await store.writeFile(testFile('src/a.ts', chunks), chunks, [v(1, 0, 0, 0)], [def('parse', 1), call('parse', 9, 'main'), call('parseAll', 10, 'main')]);
        const other = [testChunk({ path: 'lib/b.ts', startLine: 1 })];
        await store.writeFile(testFile('lib/b.ts', other), other, [v(0, 1, 0, 0)], [call('parse', 4, null)]);
        expect(await store.findSymbols({ name: 'parse', role: 'definition', limit: 10 })).toEqual([{ path: 'src/a.ts', ...def('parse', 1) }]);
        expect(await store.findSymbols({ name: 'parse', role: 'reference', limit: 10 })).toEqual([
          { path: 'lib/b.ts', ...call('parse', 4, null) },
          { path: 'src/a.ts', ...call('parse', 9, 'main') },
        ]);
        expect(await store.findSymbols({ name: 'parse', role: 'reference', limit: 1 })).toHaveLength(1);
        expect(await store.findSymbols({ name: 'parse', role: 'reference', limit: 10, pathPrefix: 'src/' })).toHaveLength(1);
        expect(await store.findSymbols({ name: 'pars', role: 'reference', limit: 10 })).toEqual([]);

        const next = [testChunk({ path: 'src/a.ts', startLine: 2 })];
        await store.writeFile(testFile('src/a.ts', next), next, [v(1, 0, 0, 0)]);
        expect(await store.findSymbols({ name: 'parse', role: 'definition', limit: 10 })).toEqual([]);
        await store.deleteFile('lib/b.ts');
        expect(await store.findSymbols({ name: 'parse', role: 'reference', limit: 10 })).toEqual([]);
      });

      it('records why a file fell back to windows in its manifest entry', async () => {
        const chunks = [testChunk({ path: 'db/schema.sql', startLine: 1 })];
        const file = { ...testFile('db/schema.sql', chunks), fallback: 'no-grammar' };
        await store.writeFile(file, chunks, [v(1, 0, 0, 0)]);
        expect(await store.getFile('db/schema.sql')).toEqual(file);
        const plain = [testChunk({ path: 'src/a.ts', startLine: 1 })];
        await store.writeFile(testFile('src/a.ts', plain), plain, [v(0, 1, 0, 0)]);
        expect((await store.getFile('src/a.ts'))?.fallback).toBeUndefined();
      });

      it('records the earlier path a moved file kept its vectors from, and forgets it when rewritten', async () => {
        const chunks = [testChunk({ path: 'lib/moved.ts', startLine: 1 })];
        const moved = { ...testFile('lib/moved.ts', chunks), embeddedFrom: 'src/old.ts' };
        await store.writeFile(moved, chunks, [v(1, 0, 0, 0)]);
        expect(await store.getFile('lib/moved.ts')).toEqual(moved);
        await store.writeFile(testFile('lib/moved.ts', chunks), chunks, [v(1, 0, 0, 0)]);
        expect((await store.getFile('lib/moved.ts'))?.embeddedFrom).toBeUndefined();
      });

      it('keeps the old symbols when a write is rejected', async () => {
        const chunks = [testChunk({ path: 'src/a.ts', startLine: 1 })];
        await store.writeFile(testFile('src/a.ts', chunks), chunks, [v(1, 0, 0, 0)], [def('keep', 1)]);
        await expect(store.writeFile(testFile('src/a.ts', chunks), chunks, [v(1, 0, 0)], [def('lost', 1)])).rejects.toMatchObject({
          code: ErrorCode.INVALID_ARGUMENT,
        });
        expect((await store.findSymbols({ name: 'keep', role: 'definition', limit: 10 })).map((hit) => hit.name)).toEqual(['keep']);
        expect(await store.findSymbols({ name: 'lost', role: 'definition', limit: 10 })).toEqual([]);
      });
    });

    it('round-trips the embedding cache', async () => {
      const a = v(0.1, 0.2, 0.3, 0.4);
      const b = v(-1, 0, 1e-7, 3.5);
      await store.putCachedEmbeddings(new Map([['hash-a', a], ['hash-b', b]]));
      const got = await store.getCachedEmbeddings(['hash-a', 'hash-b', 'hash-missing']);
      expect([...got.keys()].sort()).toEqual(['hash-a', 'hash-b']);
      expect(got.get('hash-a')).toEqual(a);
      expect(got.get('hash-b')).toEqual(b);
      expect((await store.getCachedEmbeddings([])).size).toBe(0);
      await expect(store.putCachedEmbeddings(new Map([['hash-c', v(1, 2, 3)]]))).rejects.toMatchObject({
        code: ErrorCode.INVALID_ARGUMENT,
      });
    });

    it('returns the vectors of a file by chunk id', async () => {
      const { chunks } = await put('src/a.ts', [{ startLine: 1 }, { startLine: 10 }], [v(1, 0, 0, 0), v(0, 0.5, 0.5, 0)]);
      await put('src/b.ts', [{ startLine: 1 }], [v(0, 0, 0, 1)]);
      const got = await store.vectorsOfFile('src/a.ts');
      expect([...got.keys()].sort()).toEqual([chunks[0]!.id, chunks[1]!.id].sort());
      expect(got.get(chunks[1]!.id)).toEqual(v(0, 0.5, 0.5, 0));
      expect((await store.vectorsOfFile('src/none.ts')).size).toBe(0);
    });

    it('prunes cache entries unused for longer than the given age, and rejects a bad age', async () => {
      await store.putCachedEmbeddings(new Map([['hash-old-1', v(1, 0, 0, 0)], ['hash-old-2', v(0, 1, 0, 0)]]));
      await new Promise((r) => setTimeout(r, 60));
      await store.putCachedEmbeddings(new Map([['hash-recent', v(0, 0, 1, 0)]]));
      expect(await store.pruneEmbeddingCache(30)).toEqual({ removed: 2, kept: 1 });
      expect([...(await store.getCachedEmbeddings(['hash-old-1', 'hash-old-2', 'hash-recent'])).keys()]).toEqual(['hash-recent']);
      expect(await store.pruneEmbeddingCache(3_600_000)).toEqual({ removed: 0, kept: 1 });
      for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(store.pruneEmbeddingCache(bad)).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT, message: expect.stringContaining('olderThanMs') });
      }
    });

    it('reads and writes metadata', async () => {
      expect(await store.getMeta('indexedCommit')).toBeUndefined();
      await store.setMeta('indexedCommit', 'abc123');
      await store.setMeta('indexedCommit', 'def456');
      expect(await store.getMeta('indexedCommit')).toBe('def456');
    });

    it('holds its identity and refuses another one', async () => {
      expect(store.identity).toEqual(CONTRACT_IDENTITY);
      const written = await put('src/a.ts', [{ startLine: 1 }]);
      for (const other of [
        { ...CONTRACT_IDENTITY, dim: 8 },
        { ...CONTRACT_IDENTITY, model: 'other-model' },
        { ...CONTRACT_IDENTITY, chunkerVersion: 'contract-2' },
      ]) {
        const error = await handle.reopen(other).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toMatchObject({ code: ErrorCode.INDEX_IDENTITY_MISMATCH });
        const message = (error as Error).message;
        expect(message).toContain('model "contract-model" (dim 4, chunker contract-1)');
        expect(message).toContain(`model "${other.model}" (dim ${other.dim}, chunker ${other.chunkerVersion})`);
        expect(message).toContain('monorag index --rebuild');
      }
      const same = await handle.reopen(CONTRACT_IDENTITY);
      expect(await same.listFiles()).toEqual([written.file]);
      await same.close();
    });

    it('rejects vectors of the wrong dimension or count, naming the file, and stores nothing', async () => {
      const chunks = [testChunk({ path: 'src/a.ts', startLine: 1 }), testChunk({ path: 'src/a.ts', startLine: 5 })];
      const file = testFile('src/a.ts', chunks);
      const wrongDim = store.writeFile(file, chunks, [v(1, 0, 0, 0), v(1, 0, 0)]);
      await expect(wrongDim).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
      await expect(wrongDim).rejects.toThrow(/src\/a\.ts.*3 dimensions.*expects 4/);
      await expect(store.writeFile(file, chunks, [v(1, 0, 0, 0)])).rejects.toThrow(/src\/a\.ts: 2 chunks but 1 vectors/);
      await expect(store.searchDense(v(1, 0), { limit: 1 })).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
      expect(await store.getFile('src/a.ts')).toBeUndefined();
      expect(await store.stats()).toEqual({ files: 0, chunks: 0 });
    });
  });
}
