import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFakeEmbedder, type Embedder } from '@monorag/embedder-client';
import { sha256, type Chunk } from '@monorag/shared';
import { openSqliteStore } from '@monorag/store';
import { describe, expect, it } from 'vitest';
import { EMBED_SLICE_TEXTS, embedChunks, embeddingText, MAX_EMBEDDING_CHARS } from './embed-chunks.js';

function chunk(path: string, content: string, header = path): Chunk {
  return {
    id: sha256(`${path}:${content}`).slice(0, 32), path, language: 'text', startLine: 1, endLine: 1, kind: 'window',
    symbol: null, scopes: [], header, content, contentHash: sha256(`${header}\n${content}`),
  };
}

function countingEmbedder(): Embedder & { calls: string[][] } {
  const fake = createFakeEmbedder();
  const calls: string[][] = [];
  return { calls, info: () => fake.info(), embed: (texts) => (calls.push(texts), fake.embed(texts)) };
}

async function tempStore() {
  const dir = mkdtempSync(path.join(tmpdir(), 'monorag-embed-'));
  const info = await createFakeEmbedder().info();
  return openSqliteStore({ file: path.join(dir, 'i.sqlite'), identity: { model: info.model, dim: info.dim, chunkerVersion: 't' } });
}

describe('embedChunks', () => {
  it('embeds each distinct text once, shortest first, and serves repeats from the cache', async () => {
    const store = await tempStore();
    const embedder = countingEmbedder();
    const chunks = [chunk('a', 'a much longer body of text'), chunk('b', 'short'), chunk('a', 'a much longer body of text')];
    const first = await embedChunks(chunks, store, embedder);
    expect(first.counts).toEqual({ embedded: 2, cached: 1 });
    expect(embedder.calls).toEqual([['b\nshort', 'a\na much longer body of text']]);
    const direct = await createFakeEmbedder().embed(['a\na much longer body of text']);
    expect([...first.vectors[0]!]).toEqual([...direct[0]!]);
    expect(first.vectors[2]).toEqual(first.vectors[0]);

    const second = await embedChunks(chunks, store, embedder);
    expect(second.counts).toEqual({ embedded: 0, cached: 3 });
    expect(embedder.calls).toHaveLength(1);
    await store.close();
  });

  it('caches each slice as it is embedded, so an embedder failing midway loses only the slice in flight', async () => {
    const store = await tempStore();
    const fake = createFakeEmbedder();
    let calls = 0;
    const failingSecond: Embedder = {
      info: () => fake.info(),
      embed: async (texts) => {
        calls++;
        if (calls === 2) throw new Error('embedder went away');
        return fake.embed(texts);
      },
    };
    // Equal-length texts keep their order when sorted by length.
    const chunks = Array.from({ length: EMBED_SLICE_TEXTS * 2 + 10 }, (_, i) => chunk(`f${String(i).padStart(4, '0')}`, 'body'));
    await expect(embedChunks(chunks, store, failingSecond)).rejects.toThrow('embedder went away');
    const cached = await store.getCachedEmbeddings(chunks.map((c) => c.contentHash));
    expect(cached.size).toBe(EMBED_SLICE_TEXTS);
    expect(cached.has(chunks[0]!.contentHash)).toBe(true);
    expect(cached.has(chunks[EMBED_SLICE_TEXTS]!.contentHash)).toBe(false);

    const counting = countingEmbedder();
    const again = await embedChunks(chunks, store, counting);
    expect(again.counts).toEqual({ embedded: EMBED_SLICE_TEXTS + 10, cached: EMBED_SLICE_TEXTS });
    expect(counting.calls.map((texts) => texts.length)).toEqual([EMBED_SLICE_TEXTS, 10]);
    await store.close();
  });

  it('cuts the embedded text at MAX_EMBEDDING_CHARS', () => {
    expect(embeddingText(chunk('p', 'x'.repeat(10_000)))).toHaveLength(MAX_EMBEDDING_CHARS);
  });
});
