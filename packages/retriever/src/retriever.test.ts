import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFakeEmbedder, type Embedder } from '@monorag/embedder-client';
import { ErrorCode, MonoragError, sha256, testTitleName, type Chunk, type Logger } from '@monorag/shared';
import { openSqliteStore, type SqliteStore } from '@monorag/store';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RANKING, MAX_DEMOTION, TEST_FACTOR } from './ranking-options.js';
import type { QueryAdapter } from './query-adapter.js';
import { createRetriever } from './retriever.js';

const LIMITS = { defaultLimit: 5, maxLimit: 50, candidatePool: 50, maxQueryChars: 2000, snippetChars: 400 };

function chunk(file: string, content: string): Chunk {
  const header = file;
  const contentHash = sha256(`${header}\n${content}`);
  return { id: sha256(`${file}:1:1:${contentHash}`).slice(0, 32), path: file, language: 'typescript', startLine: 1, endLine: 1, kind: 'function', symbol: null, scopes: [], header, content, contentHash };
}

describe('createRetriever', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const fake = createFakeEmbedder();
  /** A real SQLite index in a temp dir holding `chunks` (one file each), embedded by the fake embedder. */
  async function storeWith(chunks: Chunk[]): Promise<SqliteStore> {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-retriever-'));
    dirs.push(dir);
    const info = await fake.info();
    const store = await openSqliteStore({ file: path.join(dir, 'index.sqlite'), identity: { model: info.model, dim: info.dim, chunkerVersion: 't' } });
    for (const c of chunks) await writeChunk(store, c);
    return store;
  }
  async function writeChunk(store: SqliteStore, c: Chunk): Promise<void> {
    await store.writeFile({ path: c.path, contentHash: c.contentHash, size: 10, language: 'typescript', chunkCount: 1, indexedAt: 1 }, [c], await fake.embed([c.content]));
  }

  it('embeds a repeated query once (query vector cache) and a new query again', async () => {
    const embedded: string[] = [];
    const counting: Embedder = { info: () => fake.info(), embed: (texts) => (embedded.push(...texts), fake.embed(texts)) };
    const store = await storeWith([chunk('src/a.ts', 'function retryRequest() {}'), chunk('src/b.ts', 'function parseHeaders() {}')]);
    const retriever = createRetriever({ store, getEmbedder: async () => counting, limits: LIMITS });
    const first = await retriever.search({ query: 'retry the request' });
    const again = await retriever.search({ query: 'retry the request', limit: 1 });
    expect(embedded).toEqual(['retry the request']);
    expect(again.results[0]?.path).toBe(first.results[0]?.path);
    await retriever.search({ query: 'parse headers' });
    expect(embedded).toEqual(['retry the request', 'parse headers']);
    await store.close();
  });

  it('returns text held at several places once, with the other places in alsoAt (a README copied into the docs took two slots)', async () => {
    const text = 'function retryWithBackoff(attempt) { return 2 ** attempt * 100 }';
    const store = await storeWith([chunk('README.ts', text), chunk('docs/index.ts', text), chunk('vendor/copy.ts', text), chunk('src/other.ts', 'function retryLater() {}')]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    for (const mode of ['hybrid', 'lexical', 'dense'] as const) {
      const { results } = await retriever.search({ query: 'retryWithBackoff attempt', mode });
      expect(results.map((hit) => hit.path).filter((p) => p !== 'src/other.ts'), mode).toHaveLength(1);
      const [first] = results;
      const places = [first!.path, ...(first!.alsoAt ?? []).map((place) => place.path)].sort();
      expect(places, mode).toEqual(['README.ts', 'docs/index.ts', 'vendor/copy.ts']);
      expect(first!.alsoAt!.every((place) => place.startLine === 1 && place.endLine === 1), mode).toBe(true);
      expect(results.find((hit) => hit.path === 'src/other.ts')?.alsoAt, mode).toBeUndefined();
    }
    await store.close();
  });

  it('says why a filtered search is empty: a --path prefix or a language no indexed file has', async () => {
    const store = await storeWith([]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    expect((await retriever.search({ query: 'retry', pathPrefix: 'src/' })).warnings).toEqual(['The index holds no files yet; run `monorag index` first.']);
    await writeChunk(store, chunk('src/a.ts', 'function retryRequest() {}'));
    const wrongPrefix = await retriever.search({ query: 'retry', pathPrefix: './lib/' });
    expect(wrongPrefix.results).toEqual([]);
    expect(wrongPrefix.warnings).toEqual(['No indexed file path starts with "lib/"; paths are relative to the project root (for example "src/a.ts").']);
    // A glob is named as such, and a control character is shown escaped (trial: a raw newline inside the warning).
    expect((await retriever.search({ query: 'retry', pathPrefix: 'src/*.ts' })).warnings).toEqual([
      'No indexed file path starts with "src/*.ts"; paths are relative to the project root (for example "src/a.ts"). ' +
        'The path is a prefix, not a glob: give the directory (`src/`) and, for a kind of file, the language filter.',
    ]);
    expect((await retriever.search({ query: 'retry', pathPrefix: 'src\n' })).warnings).toEqual([
      'No indexed file path starts with "src\\n"; paths are relative to the project root (for example "src/a.ts").',
    ]);
    expect((await retriever.search({ query: 'retry', pathPrefix: 'src/', language: 'python' })).warnings).toEqual([
      'The indexed files under "src/" hold no python files; languages present: typescript.',
    ]);
    expect((await retriever.search({ query: 'retry', language: 'python' })).warnings).toEqual(['The index holds no python files; languages present: typescript.']);
    // The filter matches files but the query matches nothing in them: no filter warning.
    expect((await retriever.search({ query: 'zzzz', pathPrefix: 'src/', mode: 'lexical' })).warnings).toEqual([]);
    await store.close();
  });

  it('keeps tiny BM25 scores (a term in every chunk of a small index) distinct from zero', async () => {
    const store = await storeWith([chunk('src/a.ts', 'retry retry once'), chunk('src/b.ts', 'retry later')]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    const { results } = await retriever.search({ query: 'retry', mode: 'lexical' });
    expect(results.map((r) => r.path)).toEqual(['src/a.ts', 'src/b.ts']);
    // FTS5 floors the IDF of a term in over half the rows at 1e-6: scores about 1e-6, which 6 decimals rounded to 0.
    expect(results[0]!.score).toBeGreaterThan(0);
    expect(results[0]!.score).toBeLessThan(1e-4);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
    await store.close();
  });
  it('gives chunks BM25 does not match no BM25 rank in hybrid fusion (a query of words no chunk holds)', async () => {
    const store = await storeWith([chunk('src/a.ts', 'function retryRequest() {}'), chunk('src/b.ts', 'function parseHeaders() {}')]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    const lists = new Map<string, number>();
    const { results } = await retriever.search({ query: 'zebra giraffe elephant' }, (stage, list) => lists.set(stage, list.length));
    expect(results).toHaveLength(2);
    // Dense ranks both chunks; BM25 matched neither, so its list is empty rather than a copy of the dense order.
    expect(lists.get('dense')).toBe(2);
    expect(lists.get('bm25')).toBe(0);
    // One list's credit only: RRF with k = 60 gives the dense first 1/61.
    expect(results[0]!.score).toBeCloseTo(1 / 61, 6);
    await store.close();
  });

  it('warns that a query of punctuation only has nothing to match (a trial got 10 arbitrary results for "!!!" and no warning)', async () => {
    const store = await storeWith([chunk('src/a.ts', 'function retryRequest() {}')]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    const why = {
      hybrid: 'BM25 matches nothing and dense retrieval has little meaning to go on',
      lexical: 'BM25 matches nothing',
      dense: 'dense retrieval has little meaning to go on', // a trial: dense mode was told about BM25
    };
    for (const mode of ['hybrid', 'lexical', 'dense'] as const) {
      const { warnings } = await retriever.search({ query: '!!!', mode });
      expect(warnings, mode).toEqual([`The query "!!!" has no letters or digits: ${why[mode]}, so these results are close to arbitrary. Add the words or identifiers you are looking for.`]);
    }
    expect((await retriever.search({ query: 'retry' })).warnings).toEqual([]);
    await store.close();
  });

  it('refuses a query holding a lone UTF-16 surrogate as a bad argument, without calling the model (a trial got 503 "embedder unavailable")', async () => {
    const embedded: string[] = [];
    const counting: Embedder = { info: () => fake.info(), embed: (texts) => (embedded.push(...texts), fake.embed(texts)) };
    const store = await storeWith([chunk('src/a.ts', 'function retryRequest() {}')]);
    const retriever = createRetriever({ store, getEmbedder: async () => counting, limits: LIMITS });
    for (const query of ['retry \ud800 x', 'retry \udc00', 'x\ud83d']) {
      await expect(retriever.search({ query })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^Argument "query" holds a lone UTF-16 surrogate \(\\ud[8c][0-9a-f]{2} at character \d+\)/) });
    }
    await expect(retriever.search({ query: 'retry \ud800 x' })).rejects.toThrow('(\\ud800 at character 7)');
    expect(embedded).toEqual([]);
    // A whole pair is text: an emoji in a query is searched.
    expect((await retriever.search({ query: 'retry 😀' })).results.map((r) => r.path)).toEqual(['src/a.ts']);
    await store.close();
  });

  it('traces every stage of the query path in order, the last list being the results', async () => {
    const store = await storeWith([
      { ...chunk('src/a.ts', 'function retryRequest() { return retry() }'), symbol: 'retryRequest' },
      chunk('src/b.ts', 'function parseHeaders() {}'),
      chunk('docs/retry.md', 'retryRequest retries a request'),
    ]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    const stages: string[] = [];
    let last: readonly string[] = [];
    const response = await retriever.search({ query: 'retryRequest' }, (stage, list) => {
      stages.push(stage);
      last = list.map((h) => h.chunk.path);
    });
    // Hybrid, an identifier in the query (exact-symbol list), file evidence off by default, intent on.
    expect(stages).toEqual(['dense', 'bm25', 'symbol', 'rrf', 'intent', 'tests', 'side', 'cap']);
    expect(response.results.map((r) => r.path)).toEqual(last.slice(0, response.results.length));
    const lexicalStages: string[] = [];
    await retriever.search({ query: 'parse headers', mode: 'lexical' }, (stage) => lexicalStages.push(stage));
    expect(lexicalStages).toEqual(['bm25', 'rrf', 'intent', 'tests', 'side', 'cap']);
    await store.close();
  });

  it('ranks the implementation above a test that matches slightly better, unless the query asks about tests', async () => {
    const store = await storeWith([
      chunk('test/backoff.test.ts', 'it(the delay doubles, () => expect(backoffDelay(2)).toBe(400))'),
      chunk('src/backoff.ts', 'function backoffDelay(attempt) { return 100 * 2 ** attempt } // the delay doubles at each attempt, up to the cap of the retry policy'),
    ]);
    const paths = async (query: string, options: { testPrior?: boolean; pathPrefix?: string } = {}) => {
      const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS, ranking: { ...DEFAULT_RANKING, testPrior: options.testPrior ?? true } });
      return (await retriever.search({ query, mode: 'lexical', pathPrefix: options.pathPrefix })).results.map((r) => r.path);
    };
    // BM25 alone puts the test first (a shorter chunk with the same terms).
    expect(await paths('backoff delay doubles', { testPrior: false })).toEqual(['test/backoff.test.ts', 'src/backoff.ts']);
    expect(await paths('backoff delay doubles')).toEqual(['src/backoff.ts', 'test/backoff.test.ts']);
    // Asking about tests, or searching a test folder, lifts the prior.
    expect(await paths('test that the backoff delay doubles')).toEqual(['test/backoff.test.ts', 'src/backoff.ts']);
    expect(await paths('backoff delay doubles', { pathPrefix: 'test/' })).toEqual(['test/backoff.test.ts']);
    await store.close();
  });

  it('ranks the implementation above a benchmark or a release note that matches slightly better, unless the query asks about them', async () => {
    const store = await storeWith([
      chunk('benchmarks/backoff.bench.ts', 'bench(the delay doubles, () => backoffDelay(2))'),
      { ...chunk('CHANGELOG.md', 'Backoff: the backoff delay doubles again'), language: 'markdown' },
      chunk('src/backoff.ts', 'function backoffDelay(attempt) { return 100 * 2 ** attempt } // the delay doubles at each attempt, up to the cap of the retry policy'),
    ]);
    const paths = async (query: string, options: { sideFilePrior?: boolean; pathPrefix?: string } = {}) => {
      const ranking = { ...DEFAULT_RANKING, queryIntent: false, sideFilePrior: options.sideFilePrior ?? true };
      const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS, ranking });
      return (await retriever.search({ query, mode: 'lexical', pathPrefix: options.pathPrefix })).results.map((r) => r.path);
    };
    // BM25 alone puts the benchmark and the release note first (shorter chunks with the same terms).
    expect(await paths('backoff delay doubles', { sideFilePrior: false })).toEqual(['benchmarks/backoff.bench.ts', 'CHANGELOG.md', 'src/backoff.ts']);
    expect(await paths('backoff delay doubles')).toEqual(['src/backoff.ts', 'benchmarks/backoff.bench.ts', 'CHANGELOG.md']);
    // Asking about benchmarks or about changes lifts the prior for that kind only; so does a search scoped to it.
    expect(await paths('benchmark of the backoff delay doubles')).toEqual(['benchmarks/backoff.bench.ts', 'src/backoff.ts', 'CHANGELOG.md']);
    expect(await paths('what changed: backoff delay doubles')).toEqual(['CHANGELOG.md', 'src/backoff.ts', 'benchmarks/backoff.bench.ts']);
    expect(await paths('backoff delay doubles', { pathPrefix: 'benchmarks' })).toEqual(['benchmarks/backoff.bench.ts']);
    await store.close();
  });

  it('keeps the chunk both retrievers rank first on the first page when a prior weighs its file (a trial buried real source kept in bench/)', async () => {
    const words = ['split', 'command', 'line', 'flags', 'into', 'named', 'options'];
    const others = Array.from({ length: 16 }, (_, i) => chunk(`src/m${i}.ts`, `function m${i}() { return '${words[i % words.length]}' }`));
    const store = await storeWith([chunk('bench/parse-args.ts', 'function parseArgs(argv) { /* split command line flags into named options */ }'), ...others]);
    const rankOf = async (demotionCap: boolean) => {
      const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS, ranking: { ...DEFAULT_RANKING, demotionCap } });
      const { results } = await retriever.search({ query: 'split command line flags into named options', limit: 20 });
      return results.findIndex((r) => r.path === 'bench/parse-args.ts') + 1;
    };
    // BM25 ranks it first (it alone holds every query word); RRF scores sit close together, so x0.6
    // sinks it below the chunks that hold one query word, off the first page.
    expect(await rankOf(false)).toBe(15);
    expect(await rankOf(true)).toBe(1 + MAX_DEMOTION);
    await store.close();
  });

  it('ranks a class above the describe block named after it when the query is the name (a trial found `describe(\'Pool\')` first)', async () => {
    const cls = { ...chunk('src/pool.ts', 'class Pool { constructor(options) { this.clients = []; this.options = options; this.queue = []; this.closed = false } }'), symbol: 'Pool', kind: 'class' as const };
    const spec = { ...chunk('test/pool.test.ts', "describe('Pool', () => { it('Pool', () => new Pool()) })"), symbol: 'Pool', kind: 'test' as const };
    const store = await storeWith([]);
    await store.writeFile({ path: cls.path, contentHash: cls.contentHash, size: 10, language: 'typescript', chunkCount: 1, indexedAt: 1 }, [cls], await fake.embed([cls.content]), [
      { name: 'Pool', kind: 'class', role: 'definition', startLine: 1, endLine: 1, enclosing: null },
    ]);
    await store.writeFile({ path: spec.path, contentHash: spec.contentHash, size: 10, language: 'typescript', chunkCount: 1, indexedAt: 1 }, [spec], await fake.embed([spec.content]), [
      { name: 'Pool', kind: 'test', role: 'definition', startLine: 1, endLine: 1, enclosing: null },
    ]);
    const paths = async (testPrior: boolean) =>
      (await createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS, ranking: { ...DEFAULT_RANKING, testPrior } }).search({ query: 'Pool', mode: 'lexical' })).results.map((r) => r.path);
    // Without the prior the shorter test chunk, with the name three times, ranks first.
    expect(await paths(false)).toEqual(['test/pool.test.ts', 'src/pool.ts']);
    expect(await paths(true)).toEqual(['src/pool.ts', 'test/pool.test.ts']);
    await store.close();
  });

  it('keeps the definition of a name the query asks for first in a test file (a fixture only tests define), and reads a one-word query as a name the symbol table defines', async () => {
    const fixture = { ...chunk('tests/conftest.ts', 'function freeze(clock) { clock.stop() }'), symbol: 'freeze' };
    const mentions = [1, 2, 3].map((n) => chunk(`src/m${n}.ts`, `function thaw${n}() { /* undo a freeze ${'x '.repeat(n)}*/ }`));
    const store = await storeWith(mentions);
    await store.writeFile({ path: fixture.path, contentHash: fixture.contentHash, size: 10, language: 'typescript', chunkCount: 1, indexedAt: 1 }, [fixture], await fake.embed([fixture.content]), [
      { name: 'freeze', kind: 'function', role: 'definition', startLine: 1, endLine: 1, enclosing: null },
    ]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    for (const query of ['freeze', 'how does `freeze` stop the clock']) {
      const { results } = await retriever.search({ query, mode: 'lexical' });
      expect(results[0]?.path, query).toBe('tests/conftest.ts');
    }
    // The definitions read to confirm the name serve the exact-symbol step too: one lookup per name (and one for tests titled by the query).
    const lookups: string[] = [];
    const counted = Object.assign(Object.create(store) as typeof store, {
      findSymbols: (query: Parameters<typeof store.findSymbols>[0]) => {
        lookups.push(query.name);
        return store.findSymbols(query);
      },
    });
    const countedRetriever = createRetriever({ store: counted, getEmbedder: async () => fake, limits: LIMITS });
    expect((await countedRetriever.search({ query: 'how does `freeze` stop the clock', mode: 'lexical' })).results[0]?.path).toBe('tests/conftest.ts');
    expect(lookups).toEqual(['freeze', 'how does `freeze` stop the clock']);
    await store.close();
    // The same chunks without the symbol table's definition: `freeze` is a plain word, and the test file's chunk takes the prior.
    const plain = await storeWith([...mentions, fixture]);
    const unnamed = createRetriever({ store: plain, getEmbedder: async () => fake, limits: LIMITS });
    const { results } = await unnamed.search({ query: 'freeze', mode: 'lexical' });
    expect(results.map((hit) => hit.path)).toEqual(['src/m1.ts', 'src/m2.ts', 'src/m3.ts', 'tests/conftest.ts']);
    await plain.close();
  });

  it('labels a chunk of several small definitions with the one the query names, not the first (trial: cliEditNoWatcher shown as afterDataDirDeleted)', async () => {
    const text = 'function afterDataDirDeleted() {\n  return 1;\n}\nfunction cliEditNoWatcher() { return 2; }';
    const pair = { ...chunk('src/pool.ts', text), startLine: 19, endLine: 22, symbol: 'afterDataDirDeleted' };
    const pool = { ...chunk('src/class.ts', 'class Pool {\n  close() {}\n}'), startLine: 1, endLine: 3, symbol: 'Pool', kind: 'class' as const };
    const store = await storeWith([]);
    await store.writeFile({ path: pair.path, contentHash: pair.contentHash, size: 10, language: 'typescript', chunkCount: 1, indexedAt: 1 }, [pair], await fake.embed([pair.content]), [
      { name: 'afterDataDirDeleted', kind: 'function', role: 'definition', startLine: 19, endLine: 21, enclosing: null },
      { name: 'cliEditNoWatcher', kind: 'function', role: 'definition', startLine: 22, endLine: 22, enclosing: null },
    ]);
    await store.writeFile({ path: pool.path, contentHash: pool.contentHash, size: 10, language: 'typescript', chunkCount: 1, indexedAt: 1 }, [pool], await fake.embed([pool.content]), [
      { name: 'Pool', kind: 'class', role: 'definition', startLine: 1, endLine: 3, enclosing: null },
      { name: 'close', kind: 'method', role: 'definition', startLine: 2, endLine: 2, enclosing: 'Pool' },
    ]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    const label = async (query: string, mode: 'lexical' | 'hybrid') => (await retriever.search({ query, mode })).results.find((hit) => hit.path === 'src/pool.ts')?.symbol;
    for (const mode of ['lexical', 'hybrid'] as const) {
      expect(await label('cliEditNoWatcher', mode), mode).toBe('cliEditNoWatcher');
      expect(await label('afterDataDirDeleted', mode), mode).toBe('afterDataDirDeleted');
      expect(await label('afterDataDirDeleted cliEditNoWatcher', mode), mode).toBe('afterDataDirDeleted');
    }
    // A member of the chunk's definition does not rename it: the class chunk stays Pool.
    expect((await retriever.search({ query: 'close', mode: 'lexical' })).results.find((hit) => hit.path === 'src/class.ts')?.symbol).toBe('Pool');
    await store.close();
  });

  it('keeps a test asked for by its whole title in place, and a capitalised word that only a test defines stays a word', async () => {
    const titled = { ...chunk('test/session.test.ts', "it('keeps the session after a restart', () => { restart(); expect(session).toBe(kept) })"), kind: 'test' as const, symbol: 'keeps the session after a restart' };
    const code = [1, 2].map((n) => chunk(`src/s${n}.ts`, `function restore${n}() { /* keeps the session after a restart ${'x '.repeat(n)}*/ }`));
    const store = await storeWith([...code, titled]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    expect((await retriever.search({ query: 'keeps the session after a restart', mode: 'lexical' })).results[0]?.path).toBe('test/session.test.ts');
    expect((await retriever.search({ query: 'keeps the session after restarting', mode: 'lexical' })).results.at(-1)?.path).toBe('test/session.test.ts');
    await store.close();
  });

  it('keeps a test asked for by its title in place when it shares its describe\'s chunk, and only the piece of a split test holding its start', async () => {
    const title = 'evicts the least recently used entry when the capacity is exceeded';
    const grouped = {
      ...chunk('test/cache.test.js', `describe('Cache', () => {\n  it('${title}', () => {\n    expect(cache.size).toBe(2);\n  });\n});`),
      endLine: 5, kind: 'test' as const, symbol: 'Cache',
    };
    // A test split in two: the piece with the title, and its body's tail (which repeats the title's words).
    const head = { ...chunk('test/lru.test.js', `test('drops the oldest key of a full map', () => {\n  const map = fill(3);`), endLine: 2, kind: 'test' as const, symbol: 'drops the oldest key of a full map' };
    const tail = { ...chunk('test/lru.test.js', '  // drops the oldest key: the full map keeps the key used last\n  expect(map.has(oldest)).toBe(false);\n});'), startLine: 3, endLine: 5, kind: 'test' as const, symbol: 'drops the oldest key of a full map' };
    const code = [1, 2, 3].map((n) => chunk(`src/c${n}.ts`, `function evict${n}() { /* evicts an entry; drops a key ${'x '.repeat(n)}*/ }`));
    const store = await storeWith(code);
    const tests = (name: string, start: number, end: number) => ({ name, kind: 'test' as const, role: 'definition' as const, startLine: start, endLine: end, enclosing: null });
    await store.writeFile({ path: grouped.path, contentHash: grouped.contentHash, size: 10, language: 'javascript', chunkCount: 1, indexedAt: 1 }, [grouped], await fake.embed([grouped.content]), [
      tests('Cache', 1, 5),
      { ...tests(title, 2, 4), enclosing: 'Cache' },
    ]);
    await store.writeFile({ path: head.path, contentHash: sha256('lru'), size: 10, language: 'javascript', chunkCount: 2, indexedAt: 1 }, [head, tail], await fake.embed([head.content, tail.content]), [
      tests('drops the oldest key of a full map', 1, 5),
    ]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    // Scores with the test prior, against the same search without it: an exempt chunk keeps its score, another is multiplied by TEST_FACTOR.
    const noPrior = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS, ranking: { ...DEFAULT_RANKING, testPrior: false } });
    const factors = async (query: string): Promise<Map<string, number>> => {
      const without = new Map((await noPrior.search({ query, mode: 'lexical' })).results.map((hit) => [`${hit.path}:${hit.startLine}`, hit.score]));
      const withPrior = (await retriever.search({ query, mode: 'lexical' })).results;
      return new Map(withPrior.map((hit) => [`${hit.path}:${hit.startLine}`, Number((hit.score / without.get(`${hit.path}:${hit.startLine}`)!).toFixed(4))]));
    };
    // The chunk carries the describe's name; the symbol table says the asked-for test starts in it.
    expect((await factors(title)).get('test/cache.test.js:1')).toBe(1);
    expect((await factors('evicts the least recently used entry')).get('test/cache.test.js:1')).toBe(TEST_FACTOR);
    // Of a split test, only the piece holding its start keeps its place.
    const split = await factors('drops the oldest key of a full map');
    expect([split.get('test/lru.test.js:1'), split.get('test/lru.test.js:3')]).toEqual([1, TEST_FACTOR]);
    await store.close();
  });

  it('keeps a test asked for by a whole title longer than the 120 characters the symbol table stores in place', async () => {
    const title = 'keeps the session after a restart of the worker process, even when the store was closed while a write was still waiting for its lock';
    const titled = { ...chunk('test/session.test.ts', `it('${title}', () => { restart(); expect(session).toBe(kept) })`), kind: 'test' as const, symbol: testTitleName(title) };
    const code = [1, 2].map((n) => chunk(`src/s${n}.ts`, `function restore${n}() { /* ${title} ${'x '.repeat(n)}*/ }`));
    const store = await storeWith([...code, titled]);
    const retriever = createRetriever({ store, getEmbedder: async () => fake, limits: LIMITS });
    expect(titled.symbol).toMatch(/^keeps the session after a restart .*…$/);
    expect((await retriever.search({ query: title, mode: 'lexical' })).results[0]?.path).toBe('test/session.test.ts');
    await store.close();
  });

  /** A query adapter for the fake embedder that moves each coordinate one place on (an exact, checkable map). */
  function shiftAdapter(dim: number): QueryAdapter {
    const matrix = new Float32Array(dim * dim);
    for (let row = 0; row < dim; row++) matrix[row * dim + ((row + dim - 1) % dim)] = 1;
    return { model: 'fake-hash-embedder', dim, matrix };
  }

  it('searches dense with the query vector passed through its model\'s query adapter, and with the model\'s own vector when the adapter is off', async () => {
    const store = await storeWith([chunk('src/a.ts', 'function retryRequest() {}')]);
    const seen: Float32Array[] = [];
    const recording = { ...store, searchDense: (vector: Float32Array, options: Parameters<typeof store.searchDense>[1]) => (seen.push(vector), store.searchDense(vector, options)) };
    const { dim } = await fake.info();
    const [raw] = await fake.embed(['retry the request']);
    const adapted = createRetriever({ store: recording, getEmbedder: async () => fake, limits: LIMITS, queryAdapterFor: (model, d) => (model === 'fake-hash-embedder' && d === dim ? shiftAdapter(dim) : undefined) });
    await adapted.search({ query: 'retry the request', mode: 'dense' });
    const shifted = Array.from(raw!, (_, i) => raw![(i + dim - 1) % dim]!);
    expect(Math.max(...Array.from(seen[0]!, (value, i) => Math.abs(value - shifted[i]!)))).toBeLessThan(1e-6);
    expect(Array.from(seen[0]!)).not.toEqual(Array.from(raw!));
    const off = createRetriever({ store: recording, getEmbedder: async () => fake, limits: LIMITS, ranking: { queryAdapter: false }, queryAdapterFor: () => shiftAdapter(dim) });
    await off.search({ query: 'retry the request', mode: 'dense' });
    expect(Array.from(seen[1]!)).toEqual(Array.from(raw!));
    const none = createRetriever({ store: recording, getEmbedder: async () => fake, limits: LIMITS });
    await none.search({ query: 'retry the request', mode: 'dense' });
    expect(Array.from(seen[2]!)).toEqual(Array.from(raw!));
    await store.close();
  });

  it('keeps serving with the model\'s own query vectors when the query adapter cannot be read, and says so in each dense search', async () => {
    const store = await storeWith([chunk('src/a.ts', 'function retryRequest() {}')]);
    let reads = 0;
    const retriever = createRetriever({
      store, getEmbedder: async () => fake, limits: LIMITS,
      queryAdapterFor: () => {
        reads++;
        throw new MonoragError(ErrorCode.FILE_UNREADABLE, 'The query adapter /x/a.f32 holds 8 bytes, not 16 (2 x 2 float32); restore it (`git checkout -- packages/retriever/assets/query-adapter` in a clone, or reinstall monorag; `pnpm adapter:train` rebuilds it), then restart monorag.');
      },
    });
    const hybrid = await retriever.search({ query: 'retry the request' });
    expect(hybrid.results[0]?.path).toBe('src/a.ts');
    expect(hybrid.warnings).toEqual(["The query adapter /x/a.f32 holds 8 bytes, not 16 (2 x 2 float32); restore it (`git checkout -- packages/retriever/assets/query-adapter` in a clone, or reinstall monorag; `pnpm adapter:train` rebuilds it), then restart monorag. Until then dense retrieval uses the model's own query vectors."]);
    expect((await retriever.search({ query: 'retryRequest', mode: 'dense' })).warnings).toHaveLength(1);
    expect((await retriever.search({ query: 'retryRequest', mode: 'lexical' })).warnings).toEqual([]);
    expect(reads).toBe(1);
    await store.close();
  });

  it('logs a fault that is also a warning at warn level, or at debug for a caller that shows the warnings itself (said once on the CLI)', async () => {
    const store = await storeWith([chunk('src/a.ts', 'function retryRequest() {}')]);
    for (const faultLogLevel of ['warn', 'debug'] as const) {
      const logged: string[] = [];
      const record = (level: string) => (_fields: unknown, msg: string) => void logged.push(`${level}: ${msg}`);
      const logger = { warn: record('warn'), debug: record('debug'), info: record('info'), error: record('error') } as unknown as Logger;
      const retriever = createRetriever({
        store, getEmbedder: async () => fake, limits: LIMITS, logger, faultLogLevel,
        queryAdapterFor: () => {
          throw new MonoragError(ErrorCode.FILE_UNREADABLE, 'damaged');
        },
      });
      expect((await retriever.search({ query: 'retry the request' })).warnings).toHaveLength(1);
      expect(logged).toEqual([`${faultLogLevel}: query adapter unavailable; dense retrieval uses the model's own query vectors`]);
    }
    await store.close();
  });
});
