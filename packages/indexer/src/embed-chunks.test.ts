import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFakeEmbedder, type Embedder } from '@monorag/embedder-client';
import { sha256, type Chunk } from '@monorag/shared';
import { openSqliteStore } from '@monorag/store';
import { describe, expect, it } from 'vitest';
import { embedChunks, embeddingText, MAX_EMBEDDING_CHARS } from './embed-chunks.js';

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

  it('cuts the embedded text at MAX_EMBEDDING_CHARS', () => {
    expect(embeddingText(chunk('p', 'x'.repeat(10_000)))).toHaveLength(MAX_EMBEDDING_CHARS);
  });
});
