import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, type Chunk, type IndexIdentity } from '@monorag/shared';
import { CONTRACT_IDENTITY, describeChunkStoreContract } from './contract/chunk-store-contract.js';
import { deterministicVector, testChunk, testFile } from './contract/fixtures.js';
import { openSqliteStore, type SqliteStore } from './sqlite-store.js';
import { deleteStoreFiles } from './sqlite/delete-store-files.js';
import { SCHEMA_VERSION } from './sqlite/migrations.js';
import { TERM_ANALYZER } from './code-terms.js';
import { readStoredIdentity } from './sqlite/read-stored-identity.js';
import { readStoredMeta } from './sqlite/read-stored-meta.js';

function tempFile(): { file: string; dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'monorag-store-'));
  return { dir, file: path.join(dir, 'index.sqlite') };
}

/**
 * Rewrites the store file `file` as an older term analyzer left it: `analyzer` recorded, and every
 * chunk's FTS row holding only the given fields' terms.
 */
function rewriteFts(file: string, analyzer: string, row: { symbol: string; path: string; body: string }): void {
  const db = new Database(file);
  db.prepare("UPDATE meta SET value = ? WHERE key = 'fts.analyzer'").run(analyzer);
  db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all')").run();
  db.prepare('INSERT INTO chunks_fts (rowid, symbol, path, body) SELECT rowid, ?, ?, ? FROM chunks').run(row.symbol, row.path, row.body);
  db.close();
}

describeChunkStoreContract('sqlite', async (identity) => {
  const { dir, file } = tempFile();
  const opened: SqliteStore[] = [await openSqliteStore({ file, identity })];
  return {
    store: opened[0] as SqliteStore,
    reopen: async (other) => {
      const store = await openSqliteStore({ file, identity: other });
      opened.push(store);
      return store;
    },
    cleanup: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('openSqliteStore', () => {
  let dir: string;
  let file: string;
  const stores: SqliteStore[] = [];
  const open = async (identity?: IndexIdentity): Promise<SqliteStore> => {
    const store = await openSqliteStore({ file, identity });
    stores.push(store);
    return store;
  };
  const chunksOf = (p: string, n: number): Chunk[] =>
    Array.from({ length: n }, (_, i) => testChunk({ path: p, startLine: 1 + i * 10, symbol: `fn${i}`, content: `alphaWord ${p} ${i}` }));
  const vectorsOf = (chunks: Chunk[], seed: number): Float32Array[] =>
    chunks.map((_, i) => deterministicVector(seed + i, CONTRACT_IDENTITY.dim));

  beforeEach(() => {
    ({ dir, file } = tempFile());
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps data across reopen, and a reader without identity adopts the stored one', async () => {
    const writer = await open(CONTRACT_IDENTITY);
    const chunks = chunksOf('src/a.ts', 2);
    await writer.writeFile(testFile('src/a.ts', chunks), chunks, vectorsOf(chunks, 1));
    await writer.putCachedEmbeddings(new Map([['h', deterministicVector(9, 4)]]));
    await writer.setMeta('indexedCommit', 'abc');
    await writer.close();

    const reader = await open();
    expect(reader.identity).toEqual(CONTRACT_IDENTITY);
    expect(await reader.chunksOfFile('src/a.ts')).toEqual(chunks);
    expect(await reader.getMeta('indexedCommit')).toBe('abc');
    expect((await reader.getCachedEmbeddings(['h'])).get('h')).toEqual(deterministicVector(9, 4));
    const [hit] = await reader.searchDense(vectorsOf(chunks, 1)[1] as Float32Array, { limit: 1 });
    expect(hit?.chunk.id).toBe(chunks[1]?.id);
    expect(hit?.score).toBeCloseTo(1, 6);
  });

  it('without identity, a missing file is INDEX_NOT_FOUND and is not created', async () => {
    await expect(open()).rejects.toMatchObject({ code: ErrorCode.INDEX_NOT_FOUND });
    await expect(open()).rejects.toThrow(`No index found at ${file}. Run \`monorag index <path>\` first.`);
    expect(existsSync(file)).toBe(false);
  });

  it('without identity, a file holding none is INDEX_NOT_FOUND', async () => {
    new Database(file).close();
    await expect(open()).rejects.toMatchObject({ code: ErrorCode.INDEX_NOT_FOUND });
    expect(readStoredIdentity(file)).toBeUndefined();
  });

  it('a file that is not SQLite is STORE_FAILED naming the file', async () => {
    writeFileSync(file, 'not a database, not at all, just text long enough to have a header'.repeat(10));
    await expect(open(CONTRACT_IDENTITY)).rejects.toMatchObject({ code: ErrorCode.STORE_FAILED });
    await expect(open(CONTRACT_IDENTITY)).rejects.toThrow(file);
  });

  it('rejects a dimension that is not a positive integer', async () => {
    await expect(open({ ...CONTRACT_IDENTITY, dim: 0 })).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
  });

  it('readStoredIdentity and deleteStoreFiles', async () => {
    expect(readStoredIdentity(file)).toBeUndefined();
    const store = await open(CONTRACT_IDENTITY);
    expect(readStoredIdentity(file)).toEqual(CONTRACT_IDENTITY);
    await store.close();
    expect(existsSync(file)).toBe(true);
    deleteStoreFiles(file);
    for (const suffix of ['', '-wal', '-shm']) expect(existsSync(file + suffix)).toBe(false);
    deleteStoreFiles(file);
  });

  it('readStoredMeta reads the given keys read-only: empty for a missing file, STORE_FAILED for a non-index', async () => {
    expect(readStoredMeta(file, ['project.root'])).toEqual(new Map());
    const store = await open(CONTRACT_IDENTITY);
    await store.setMeta('project.root', '/repos/a');
    await store.setMeta('indexedCommit', 'abc');
    expect(readStoredMeta(file, ['project.root', 'project.dataDir'])).toEqual(new Map([['project.root', '/repos/a']]));
    await store.close();
    writeFileSync(file, 'not a database, not at all, just text long enough to have a header'.repeat(10));
    expect(() => readStoredMeta(file, ['project.root'])).toThrow(expect.objectContaining({ code: ErrorCode.STORE_FAILED }));
  });

  it('migrations run once: reopening leaves the schema and user_version unchanged', async () => {
    const schema = (): unknown[] => {
      const db = new Database(file, { readonly: true });
      try {
        return [db.pragma('user_version', { simple: true }), db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all()];
      } finally {
        db.close();
      }
    };
    await (await open(CONTRACT_IDENTITY)).close();
    const first = schema();
    expect(first[0]).toBe(SCHEMA_VERSION);
    await (await open(CONTRACT_IDENTITY)).close();
    await (await open()).close();
    expect(schema()).toEqual(first);
  });

  it('cache pruning keeps what a chunk references and counts age from when a file stopped referencing it', async () => {
    const store = await open(CONTRACT_IDENTITY);
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    const [kept] = chunksOf('src/kept.ts', 1);
    const [dropped] = chunksOf('src/dropped.ts', 1);
    const [replacement] = chunksOf('src/replacement.ts', 1).map((c) => ({ ...c, path: 'src/dropped.ts' }));
    await store.putCachedEmbeddings(new Map([[kept!.contentHash, deterministicVector(1, 4)], [dropped!.contentHash, deterministicVector(2, 4)]]));
    await store.writeFile(testFile('src/kept.ts', [kept!]), [kept!], vectorsOf([kept!], 1));
    await store.writeFile(testFile('src/dropped.ts', [dropped!]), [dropped!], vectorsOf([dropped!], 2));
    await sleep(80);
    // Replacing the file unreferences `dropped` now: its age starts again.
    await store.writeFile(testFile('src/dropped.ts', [replacement!]), [replacement!], vectorsOf([replacement!], 3));
    expect(await store.pruneEmbeddingCache(40)).toEqual({ removed: 0, kept: 2 });
    await sleep(80);
    // `kept` is older still, but a chunk references it.
    expect(await store.pruneEmbeddingCache(40)).toEqual({ removed: 1, kept: 1 });
    expect([...(await store.getCachedEmbeddings([kept!.contentHash, dropped!.contentHash])).keys()]).toEqual([kept!.contentHash]);
    // Deleting the file that references it restarts its age too.
    await store.deleteFile('src/kept.ts');
    expect(await store.pruneEmbeddingCache(40)).toEqual({ removed: 0, kept: 1 });
    await sleep(80);
    expect(await store.pruneEmbeddingCache(40)).toEqual({ removed: 1, kept: 0 });
  });

  it('cache pruning drops entries of another model at once', async () => {
    await (await open(CONTRACT_IDENTITY)).close();
    const db = new Database(file);
    db.prepare('INSERT INTO embedding_cache (model, content_hash, vector, used_at) VALUES (?, ?, ?, ?)').run('other-model', 'h', Buffer.alloc(16), Date.now());
    db.close();
    const store = await open(CONTRACT_IDENTITY);
    await store.putCachedEmbeddings(new Map([['mine', deterministicVector(1, 4)]]));
    expect(await store.pruneEmbeddingCache(3_600_000)).toEqual({ removed: 1, kept: 1 });
  });

  it('rebuilds the FTS rows from the stored chunks when the recorded term analyzer differs', async () => {
    const store = await open(CONTRACT_IDENTITY);
    const chunks = [testChunk({ path: 'src/retry.ts', startLine: 1, content: 'function retrying() {}' })];
    await store.writeFile(testFile('src/retry.ts', chunks), chunks, vectorsOf(chunks, 1));
    await store.close();
    // As an older analyzer left it: another analyzer recorded and FTS rows without the stemmed term.
    rewriteFts(file, 'code-terms-1', { symbol: '', path: '', body: 'unrelated' });
    const reopened = await open(CONTRACT_IDENTITY);
    expect((await reopened.searchLexical('retry', { limit: 5 })).map((hit) => hit.chunk.id)).toEqual([chunks[0]!.id]);
    expect(await reopened.getMeta('fts.analyzer')).toBe(TERM_ANALYZER);
    expect(await reopened.searchLexical('unrelated', { limit: 5 })).toEqual([]);
  });

  it('finds a release by its version number, whole or as major.minor, and rebuilds FTS rows written before versions were terms', async () => {
    const store = await open(CONTRACT_IDENTITY);
    const notes = [
      testChunk({ path: 'CHANGELOG.md', startLine: 1, language: 'markdown', content: '## 2.0.0\nRetries back off.' }),
      testChunk({ path: 'CHANGELOG.md', startLine: 4, language: 'markdown', content: '## 1.0.0\nFirst release.' }),
    ];
    await store.writeFile(testFile('CHANGELOG.md', notes), notes, vectorsOf(notes, 1));
    const found = async (query: string) => (await store.searchLexical(query, { limit: 5 })).map((hit) => hit.chunk.startLine);
    expect(await found('2.0.0')).toEqual([1]);
    expect(await found('what changed in 2.0')).toEqual([1]);
    expect(await found('1.0.0')).toEqual([4]);
    await store.close();
    // As `code-terms-2` left it: the version's single digits dropped, nothing to find.
    rewriteFts(file, 'code-terms-2+porter+comments+jupyter', { symbol: '', path: 'changelog md', body: 'retri back off' });
    const reopened = await open(CONTRACT_IDENTITY);
    expect((await reopened.searchLexical('2.0.0', { limit: 5 })).map((hit) => hit.chunk.startLine)).toEqual([1]);
    await reopened.close();
  });

  it('finds a word inside a Chinese sentence (CJK bigrams), and rebuilds FTS rows written when a run between punctuation was one term', async () => {
    const store = await open(CONTRACT_IDENTITY);
    const guide = [
      testChunk({ path: 'docs/guide.md', startLine: 1, language: 'markdown', content: '这是一个关于连接池的说明。连接池会在失败时重试。' }),
      testChunk({ path: 'docs/guide.md', startLine: 3, language: 'markdown', content: '日志写到标准错误。' }),
    ];
    await store.writeFile(testFile('docs/guide.md', guide), guide, vectorsOf(guide, 1));
    const found = async (s: SqliteStore, query: string) => (await s.searchLexical(query, { limit: 5 })).map((hit) => hit.chunk.startLine);
    expect(await found(store, '连接池')).toEqual([1]);
    expect(await found(store, '说明')).toEqual([1]);
    await store.close();
    // As `code-terms-3` left it: each run between punctuation one term, so neither word matched.
    rewriteFts(file, 'code-terms-3+porter+comments+jupyter', { symbol: '', path: 'doc guid md', body: '这是一个关于连接池的说明 连接池会在失败时重试' });
    const reopened = await open(CONTRACT_IDENTITY);
    expect(await found(reopened, '连接池')).toEqual([1]);
    expect(await found(reopened, '说明')).toEqual([1]);
    expect(await reopened.getMeta('fts.analyzer')).toBe(TERM_ANALYZER);
  });

  it("rebuilds the FTS rows of a store written before notebook code cells counted their comments twice", async () => {
    const store = await open(CONTRACT_IDENTITY);
    const content = 'def trend(xs):\n    # least squares\n    return fit(xs)';
    const chunks = [testChunk({ path: 'nb/sales.ipynb', startLine: 20, language: 'jupyter', symbol: 'trend', content })];
    await store.writeFile(testFile('nb/sales.ipynb', chunks), chunks, vectorsOf(chunks, 1));
    await store.close();
    // As the analyzer before `+jupyter` left it: the body holds the comment once.
    rewriteFts(file, 'code-terms-2+porter+comments', { symbol: 'trend', path: 'nb sales ipynb', body: 'def trend xs least squar return fit xs' });
    /** How often the FTS rows hold `term` (contentless FTS5: counted from its index through fts5vocab). */
    const occurrences = (term: string): number => {
      const reader = new Database(file);
      try {
        reader.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, 'chunks_fts', 'instance')");
        return reader.prepare("SELECT count(*) FROM temp.vocab WHERE term = ? AND col = 'body'").pluck().get(term) as number;
      } finally {
        reader.close();
      }
    };
    expect(occurrences('least')).toBe(1);
    await (await open(CONTRACT_IDENTITY)).close();
    expect(occurrences('least')).toBe(2);
    expect(occurrences('fit')).toBe(1);
  });

  it('imports the embedding cache of another index file for its model only', async () => {
    const old = await open(CONTRACT_IDENTITY);
    await old.putCachedEmbeddings(new Map([['a', deterministicVector(1, 4)], ['b', deterministicVector(2, 4)]]));
    await old.close();
    const db = new Database(file);
    db.prepare('INSERT INTO embedding_cache (model, content_hash, vector, used_at) VALUES (?, ?, ?, ?)').run('other-model', 'c', Buffer.alloc(16), 1);
    db.close();
    const next = await openSqliteStore({ file: `${file}.rebuild`, identity: { ...CONTRACT_IDENTITY, chunkerVersion: 'contract-2' } });
    stores.push(next);
    await next.putCachedEmbeddings(new Map([['a', deterministicVector(9, 4)]]));
    expect(await next.importEmbeddingCache(file)).toBe(1);
    const got = await next.getCachedEmbeddings(['a', 'b', 'c']);
    expect([...got.keys()].sort()).toEqual(['a', 'b']);
    expect(got.get('a')).toEqual(deterministicVector(9, 4));
    expect(got.get('b')).toEqual(deterministicVector(2, 4));
    expect(await next.importEmbeddingCache(path.join(dir, 'missing.sqlite'))).toBe(0);
  });

  it('refuses a file written by a newer schema', async () => {
    await (await open(CONTRACT_IDENTITY)).close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    await expect(open(CONTRACT_IDENTITY)).rejects.toMatchObject({ code: ErrorCode.STORE_FAILED });
    await expect(open(CONTRACT_IDENTITY)).rejects.toThrow(/newer than this monorag supports/);
  });

  it('rejects limits that are not integers from 0 to the maximum', async () => {
    const store = await open(CONTRACT_IDENTITY);
    for (const limit of [-1, 1.5, 4097]) {
      await expect(store.searchDense(deterministicVector(1, 4), { limit })).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
    }
    await expect(store.searchLexical('x', { limit: -1 })).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
    expect(await store.searchDense(deterministicVector(1, 4), { limit: 4096 })).toEqual([]);
  });

  it('reserves identity.* metadata keys', async () => {
    const store = await open(CONTRACT_IDENTITY);
    await expect(store.setMeta('identity.model', 'x')).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
    expect(await store.getMeta('identity.model')).toBe(CONTRACT_IDENTITY.model);
  });

  it('a writeFile failing midway leaves the previous state intact', async () => {
    const store = await open(CONTRACT_IDENTITY);
    const before = chunksOf('src/a.ts', 2);
    await store.writeFile(testFile('src/a.ts', before), before, vectorsOf(before, 1));
    const snapshot = async () => [
      await store.listFiles(),
      await store.chunksOfFile('src/a.ts'),
      await store.searchDense(deterministicVector(1, 4), { limit: 10 }),
      await store.searchLexical('alphaWord', { limit: 10 }),
      await store.stats(),
    ];
    const expected = await snapshot();

    // The third chunk repeats the first one's id: the UNIQUE constraint fails after the old rows were
    // deleted and two new chunks (with vectors and FTS rows) were inserted.
    const fresh = chunksOf('src/a.ts', 3).map((chunk) => ({ ...chunk, content: `zebra ${chunk.content}` }));
    const broken = [fresh[0], fresh[1], { ...fresh[2], id: fresh[0]?.id }] as Chunk[];
    const failed = store.writeFile(testFile('src/a.ts', broken), broken, vectorsOf(broken, 50));
    await expect(failed).rejects.toMatchObject({ code: ErrorCode.STORE_FAILED });
    await expect(failed).rejects.toThrow(/could not store src\/a\.ts: UNIQUE constraint failed: chunks\.id/);

    expect(await snapshot()).toEqual(expected);
    expect(await store.searchLexical('zebra', { limit: 10 })).toEqual([]);
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT count(*) FROM chunks_vec_rowids').pluck().get()).toBe(2);
    raw.close();
  });

  it('a reader sees the last committed state while a writer holds an open transaction', async () => {
    const writer = await open(CONTRACT_IDENTITY);
    const reader = await open();
    const first = chunksOf('src/a.ts', 2);
    await writer.writeFile(testFile('src/a.ts', first), first, vectorsOf(first, 1));
    expect(await reader.chunksOfFile('src/a.ts')).toEqual(first);

    // A third connection stands in for another process mid-write: it has deleted the file's rows but
    // not committed yet.
    const other = new Database(file);
    other.pragma('busy_timeout = 5000');
    other.exec('BEGIN IMMEDIATE');
    other.prepare('DELETE FROM chunks WHERE path = ?').run('src/a.ts');
    other.prepare('DELETE FROM files WHERE path = ?').run('src/a.ts');
    expect(await reader.chunksOfFile('src/a.ts')).toEqual(first);
    expect(await reader.stats()).toEqual({ files: 1, chunks: 2 });
    expect((await reader.searchLexical('alphaWord', { limit: 10 })).length).toBe(2);
    other.exec('ROLLBACK');
    other.close();

    const second = chunksOf('src/a.ts', 3);
    await writer.writeFile(testFile('src/a.ts', second), second, vectorsOf(second, 7));
    expect(await reader.chunksOfFile('src/a.ts')).toEqual(second);
    expect((await reader.searchDense(deterministicVector(8, 4), { limit: 1 }))[0]?.chunk.id).toBe(second[1]?.id);
  });
});
