import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFakeEmbedder, type Embedder } from '@monorag/embedder-client';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { indexProject } from './index-project.js';
import { openTestIndex } from './test-index.js';
import { testNotebook } from './test-notebook.js';

function repo(fileCount: number): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-idx-')));
  mkdirSync(path.join(root, 'src'));
  for (let i = 0; i < fileCount; i++) {
    writeFileSync(path.join(root, 'src', `m${i}.ts`), `/** Module ${i}. */\nexport function handler${i}(x: number): number {\n  return x + ${i};\n}\n`);
  }
  return root;
}

/** A fake embedder whose `embed` fails from call number `failFrom` on (1-based). */
function flakyEmbedder(failFrom: number): Embedder {
  const fake = createFakeEmbedder();
  let calls = 0;
  return {
    info: () => fake.info(),
    embed: (texts) => {
      calls++;
      if (calls >= failFrom) return Promise.reject(new MonoragError(ErrorCode.EMBEDDER_UNAVAILABLE, 'down'));
      return fake.embed(texts);
    },
  };
}

describe('indexProject', () => {
  it('keeps what was written before a failure and resumes from there', async () => {
    const root = repo(6);
    // One modification time for all: files are indexed most recently modified first, ties by path, and six
    // writes in a row can straddle a tick of the file system's clock.
    const saved = new Date(Date.UTC(2026, 0, 1));
    for (let i = 0; i < 6; i++) utimesSync(path.join(root, 'src', `m${i}.ts`), saved, saved);
    const base = { ...(await openTestIndex(root)), embedBatchChunks: 2 };
    const { store } = base;

    await expect(indexProject({ ...base, embedder: flakyEmbedder(3) })).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
    const partial = await store.listFiles();
    expect(partial.map((f) => f.path)).toEqual(['src/m0.ts', 'src/m1.ts', 'src/m2.ts', 'src/m3.ts']);
    for (const f of partial) expect((await store.chunksOfFile(f.path)).length).toBe(f.chunkCount);

    const resumed = await indexProject({ ...base, embedder: createFakeEmbedder() });
    expect(resumed).toMatchObject({ files: 6, added: 2, unchanged: 4, deleted: 0 });
    await store.close();
  });

  it('writes the most recently modified files first, and an aborted signal stops it between files with RUN_INTERRUPTED, keeping what it wrote', async () => {
    const root = repo(4);
    // m2 saved last, then m0; m1 and m3 older and of one age (ties by path).
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    for (const [name, s] of [['m0', 30], ['m1', 10], ['m2', 40], ['m3', 10]] as const) utimesSync(path.join(root, 'src', `${name}.ts`), at(s), at(s));
    const base = { ...(await openTestIndex(root)), embedBatchChunks: 1 };
    const { store } = base;
    const order: string[] = [];
    const controller = new AbortController();
    const writeFile = store.writeFile.bind(store);
    store.writeFile = async (record, chunks, vectors, symbols) => {
      order.push(record.path);
      await writeFile(record, chunks, vectors, symbols);
      if (order.length === 2) controller.abort();
    };
    await expect(indexProject({ ...base, signal: controller.signal })).rejects.toMatchObject({ code: ErrorCode.RUN_INTERRUPTED });
    expect(order).toEqual(['src/m2.ts', 'src/m0.ts']);
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/m0.ts', 'src/m2.ts']);
    expect(await store.getMeta('indexedAt')).toBeUndefined();

    const resumed = await indexProject(base);
    expect(order).toEqual(['src/m2.ts', 'src/m0.ts', 'src/m1.ts', 'src/m3.ts']);
    expect(resumed).toMatchObject({ files: 4, added: 2, unchanged: 2 });
    expect(await store.getMeta('indexedAt')).toBeDefined();
    await store.close();
  });

  it('prunes cache entries unused past the retention after full runs only; a kept entry spares the re-embedding', async () => {
    const root = repo(3);
    const base = await openTestIndex(root);
    const { store } = base;
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    const original = `/** Module 0. */\nexport function handler0(x: number): number {\n  return x + 0;\n}\n`;
    const edited = original.replace('x + 0', 'x * 2');
    const first = await indexProject({ ...base, cacheRetentionMs: 0 });
    expect(first).toMatchObject({ files: 3, cachePruned: 0 });
    const chunksOfM0 = (await store.chunksOfFile('src/m0.ts')).length;

    // Edit, then undo the edit: the original chunks come from the cache while retention keeps them.
    writeFileSync(path.join(root, 'src/m0.ts'), edited);
    await sleep(30);
    expect(await indexProject({ ...base, cacheRetentionMs: 86_400_000 })).toMatchObject({ changed: 1, chunksEmbedded: chunksOfM0, cachePruned: 0 });
    writeFileSync(path.join(root, 'src/m0.ts'), original);
    expect(await indexProject({ ...base, cacheRetentionMs: 86_400_000 })).toMatchObject({ changed: 1, chunksEmbedded: 0, cachePruned: 0 });

    // Path-limited runs never prune; a full run past the retention removes the edit's unused entries.
    writeFileSync(path.join(root, 'src/m0.ts'), edited);
    expect(await indexProject({ ...base, paths: ['src/m0.ts'], cacheRetentionMs: 0 })).toMatchObject({ chunksEmbedded: 0, cachePruned: 0 });
    writeFileSync(path.join(root, 'src/m0.ts'), original);
    await indexProject({ ...base, paths: ['src/m0.ts'] });
    await sleep(30);
    expect(await indexProject({ ...base, cacheRetentionMs: 10 })).toMatchObject({ unchanged: 3, cachePruned: chunksOfM0 });
    writeFileSync(path.join(root, 'src/m0.ts'), edited);
    expect(await indexProject({ ...base, cacheRetentionMs: 10 })).toMatchObject({ changed: 1, chunksEmbedded: chunksOfM0 });
    await store.close();
  });

  it('a moved directory keeps its vectors (no model call), records where they were embedded, and a second move keeps them too', async () => {
    const root = repo(3);
    const base = await openTestIndex(root);
    const { store } = base;
    await indexProject(base);
    const before = await store.vectorsOfFile('src/m1.ts');
    const chunksBefore = await store.chunksOfFile('src/m1.ts');

    renameSync(path.join(root, 'src'), path.join(root, 'lib'));
    const moved = await indexProject({ ...base, paths: ['src', 'lib'] });
    expect(moved).toMatchObject({ files: 3, added: 3, deleted: 3, moved: 3, chunksEmbedded: 0, chunksFromCache: 0 });
    expect((await store.listFiles()).map((f) => [f.path, f.embeddedFrom])).toEqual([
      ['lib/m0.ts', 'src/m0.ts'], ['lib/m1.ts', 'src/m1.ts'], ['lib/m2.ts', 'src/m2.ts'],
    ]);
    const after = await store.chunksOfFile('lib/m1.ts');
    expect(after.map((c) => [c.startLine, c.endLine, c.content])).toEqual(chunksBefore.map((c) => [c.startLine, c.endLine, c.content]));
    expect(after.every((c) => c.header.startsWith('lib/m1.ts'))).toBe(true);
    const vectorsAfter = await store.vectorsOfFile('lib/m1.ts');
    expect(after.map((c) => vectorsAfter.get(c.id))).toEqual(chunksBefore.map((c) => before.get(c.id)));

    // Two identical files moved together both keep their vectors.
    writeFileSync(path.join(root, 'lib/copy-a.ts'), 'export const same = 1;\n');
    writeFileSync(path.join(root, 'lib/copy-b.ts'), 'export const same = 1;\n');
    await indexProject(base);
    mkdirSync(path.join(root, 'dups'));
    renameSync(path.join(root, 'lib/copy-a.ts'), path.join(root, 'dups/copy-a.ts'));
    renameSync(path.join(root, 'lib/copy-b.ts'), path.join(root, 'dups/copy-b.ts'));
    expect(await indexProject(base)).toMatchObject({ moved: 2, chunksEmbedded: 0, deleted: 2, added: 2 });

    // Moved again: still no model call, and the vectors still name the path they were embedded under.
    renameSync(path.join(root, 'lib/m1.ts'), path.join(root, 'lib/renamed.ts'));
    expect(await indexProject(base)).toMatchObject({ moved: 1, chunksEmbedded: 0 });
    expect((await store.getFile('lib/renamed.ts'))?.embeddedFrom).toBe('src/m1.ts');
    // An edit embeds the file for its own path again.
    writeFileSync(path.join(root, 'lib/renamed.ts'), 'export const changed = 1;\n');
    expect((await indexProject(base)).chunksEmbedded).toBeGreaterThan(0);
    expect((await store.getFile('lib/renamed.ts'))?.embeddedFrom).toBeUndefined();
    await store.close();
  });

  it('a file deleted after the walk listed it is a deletion: its indexed copy goes, it is not reported unreadable', async () => {
    const root = repo(3);
    const base = await openTestIndex(root);
    const { store } = base;
    await indexProject(base);
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/m0.ts', 'src/m1.ts', 'src/m2.ts']);
    writeFileSync(path.join(root, 'src/m1.ts'), 'export function changed(): number {\n  return 1;\n}\n');
    let removed = false;
    const report = await indexProject({
      ...base,
      // The first progress call comes after the walk and before any file is read.
      onProgress: () => {
        if (!removed) rmSync(path.join(root, 'src/m1.ts'));
        removed = true;
      },
    });
    expect(report.skipped).toEqual([]);
    expect(report).toMatchObject({ deleted: 1, unchanged: 2, files: 2 });
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/m0.ts', 'src/m2.ts']);
    await store.close();
  });

  it('leaves a file holding a private key out (reason secret), removing it if it was indexed before', async () => {
    const root = repo(1);
    const base = await openTestIndex(root);
    const { store } = base;
    writeFileSync(path.join(root, 'src/tls.ts'), 'export const KEY = process.env.TLS_KEY;\n');
    expect(await indexProject(base)).toMatchObject({ files: 2, skipped: [] });
    const key = `-----BEGIN EC PRIVATE KEY-----\n${'MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oA'.repeat(2)}\n-----END EC PRIVATE KEY-----`;
    writeFileSync(path.join(root, 'src/tls.ts'), `export const KEY = \`${key}\`;\n`);
    expect(await indexProject(base)).toMatchObject({ files: 1, deleted: 1, skipped: [{ path: 'src/tls.ts', reason: 'secret' }] });
    expect(await store.searchLexical('MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oA', { limit: 5 })).toEqual([]);
    await store.close();
  });

  it('indexes the code of a file with an inlined WebAssembly module but not the pieces of its base64 line', async () => {
    const root = repo(0);
    const base = await openTestIndex(root);
    const { store } = base;
    const wasm = 'AGFzbQEAAAABQgtgA39/fwBgAX8Bf2ACf38AYAF/AGABfwF+'.repeat(400);
    writeFileSync(
      path.join(root, 'src/simd.js'),
      // As in undici's lib/milo/simd.js: one long line of data among many short lines of code (so the
      // file is not a bundle: its lines average well under 500 characters).
      `const wasmModule = new WebAssembly.Module(\n  Buffer.from(\n    '${wasm}',\n    'base64'));\n\nfunction instantiateParser(imports) {\n  return new WebAssembly.Instance(wasmModule, imports);\n}\n\n` +
        Array.from({ length: 60 }, (_, i) => `function onEvent${i}(parser) {\n  return parser.callback(${i});\n}\n`).join('\n') +
        'module.exports = { instantiateParser };\n',
    );
    const report = await indexProject(base);
    expect(report).toMatchObject({ files: 1, skipped: [] });
    const chunks = await store.chunksOfFile('src/simd.js');
    expect(chunks.some((c) => c.content.includes('function instantiateParser'))).toBe(true);
    expect(chunks.filter((c) => c.content.includes('AGFzbQEAAAAB'))).toEqual([]);
    expect((await store.getFile('src/simd.js'))?.chunkCount).toBe(chunks.length);
    await store.close();
  });

  it('leaves minified code out and lists it as skipped, removing it if it was indexed before', async () => {
    const root = repo(1);
    const base = await openTestIndex(root);
    const { store } = base;
    writeFileSync(path.join(root, 'src/bundle.js'), 'export function small() { return 1; }\n');
    expect(await indexProject(base)).toMatchObject({ files: 2, skipped: [] });
    // The same file rebuilt as one 30 KB line (not named *.min.js, so no ignore rule catches it).
    const body = Array.from({ length: 1000 }, (_, i) => `function f${i}(a){return a+${i}}`).join(';');
    writeFileSync(path.join(root, 'src/bundle.js'), body);
    const report = await indexProject(base);
    expect(report).toMatchObject({ files: 1, deleted: 1, skipped: [{ path: 'src/bundle.js', reason: 'minified' }] });
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/m0.ts']);
    expect(await store.chunksOfFile('src/bundle.js')).toEqual([]);
    // Hand-written code with one long line (an inline data URI) is kept and parsed: the long line is a chunk alone.
    const icon = `export const ICON = 'data:image/svg+xml;base64,${'A'.repeat(2600)}';\n${Array.from({ length: 12 }, (_, i) => `export function render${i}() { return ICON + ${i}; }`).join('\n')}\n`;
    writeFileSync(path.join(root, 'src/icon.ts'), icon);
    const kept = await indexProject(base);
    expect(kept.skipped.map((s) => s.path)).toEqual(['src/bundle.js']);
    expect((await store.getFile('src/icon.ts'))?.fallback).toBeUndefined();
    const chunks = await store.chunksOfFile('src/icon.ts');
    // The data line, a chunk alone, is inlined base64 data: no chunk (isDataChunk); the functions after it are syntax chunks.
    expect(chunks.filter((c) => c.content.includes('AAAA'))).toEqual([]);
    expect(chunks.some((c) => c.content.includes('render11') && c.kind !== 'window')).toBe(true);
    await store.close();
  });

  it('indexes a notebook that its plots put over the limit, at its .ipynb lines; one whose cell sources grow over it is removed, saying so', async () => {
    const root = repo(0);
    const base = { ...(await openTestIndex(root)), maxFileBytes: 1000 };
    const code = 'def trend(xs):\n    # least squares slope\n    return fit(xs)\n';
    const text = testNotebook({ code, imageChars: 5000 });
    writeFileSync(path.join(root, 'src/rain.ipynb'), text);
    const first = await indexProject(base);
    expect(first).toMatchObject({ files: 1, added: 1, skipped: [] });
    expect(await base.store.getFile('src/rain.ipynb')).toMatchObject({ language: 'jupyter', size: Buffer.byteLength(text) });
    const trend = (await base.store.chunksOfFile('src/rain.ipynb')).find((c) => c.symbol === 'trend');
    expect(trend).toMatchObject({ kind: 'function', startLine: 27, endLine: 29, content: code.trimEnd() });
    expect(text.split('\n')[26]).toBe('    "def trend(xs):\\n",');
    expect((await base.store.searchLexical('least squares slope', { limit: 1 }))[0]?.chunk.id).toBe(trend?.id);

    // Sources: `# Rainfall` (10 bytes), then the code (60 + 40 x 29 bytes) less its final newline.
    const long = testNotebook({ code: `${code}${'total = 0  # a running total\n'.repeat(40)}`, imageChars: 100 });
    writeFileSync(path.join(root, 'src/rain.ipynb'), long);
    const second = await indexProject(base);
    expect(second).toMatchObject({ files: 0, deleted: 1 });
    expect(second.skipped).toEqual([
      { path: 'src/rain.ipynb', reason: 'too-large', detail: `cell sources ${10 + 60 + 40 * 29 - 1} bytes > 1000 (notebook file ${Buffer.byteLength(long)} bytes)`, removed: true },
    ]);
    await base.store.close();
  });

  it('marks a skipped file that an earlier run indexed as removed: the skip is why it counts as deleted', async () => {
    const root = repo(1);
    const base = { ...(await openTestIndex(root)), maxFileBytes: 200 };
    writeFileSync(path.join(root, 'src/notes.md'), '# Notes\n\nshort\n');
    writeFileSync(path.join(root, 'src/blob.bin.txt'), 'text for now\n');
    expect(await indexProject(base)).toMatchObject({ files: 3, skipped: [] });
    writeFileSync(path.join(root, 'src/notes.md'), `# Notes\n\n${'long line of notes '.repeat(20)}\n`);
    writeFileSync(path.join(root, 'src/blob.bin.txt'), Buffer.from([0x61, 0, 0x62, 0, 0x63]));
    writeFileSync(path.join(root, 'src/big-new.md'), 'x'.repeat(300));
    const report = await indexProject(base);
    expect(report).toMatchObject({ files: 1, deleted: 2 });
    expect([...report.skipped].sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'src/big-new.md', reason: 'too-large', detail: '300 bytes > 200' },
      { path: 'src/blob.bin.txt', reason: 'binary', removed: true },
      { path: 'src/notes.md', reason: 'too-large', detail: '390 bytes > 200', removed: true },
    ]);
    await base.store.close();
  });
});
