import type { Chunk } from '@monorag/shared';
import type { Embedder } from '@monorag/embedder-client';
import type { ChunkStore } from '@monorag/store';

/** The text embedded for a chunk: its context header, a newline, then its content. */
export function embeddingText(chunk: Chunk): string {
  return `${chunk.header}\n${chunk.content}`;
}

/** Counts of {@link embedChunks}. */
export interface EmbedCounts {
  /** Texts sent to the embedder. */
  embedded: number;
  /** Chunks whose vector came from the embedding cache (or from a duplicate in the same batch). */
  cached: number;
}

/**
 * Returns one vector per chunk, in order: from the store's embedding cache (keyed by model and
 * content hash) where present, otherwise from the embedder, and adds new vectors to the cache.
 * Identical chunk texts are embedded once.
 * @throws MonoragError `EMBEDDER_UNAVAILABLE` from the embedder.
 */
export async function embedChunks(
  chunks: readonly Chunk[],
  store: ChunkStore,
  embedder: Embedder,
): Promise<{ vectors: Float32Array[]; counts: EmbedCounts }> {
  const hashes = [...new Set(chunks.map((c) => c.contentHash))];
  const known = await store.getCachedEmbeddings(hashes);
  const missing = new Map<string, string>();
  for (const chunk of chunks) {
    if (!known.has(chunk.contentHash) && !missing.has(chunk.contentHash)) {
      missing.set(chunk.contentHash, embeddingText(chunk));
    }
  }
  if (missing.size > 0) {
    const fresh = await embedder.embed([...missing.values()]);
    const entries = new Map<string, Float32Array>();
    let i = 0;
    for (const hash of missing.keys()) entries.set(hash, fresh[i++]!);
    await store.putCachedEmbeddings(entries);
    for (const [hash, vector] of entries) known.set(hash, vector);
  }
  const vectors = chunks.map((c) => known.get(c.contentHash)!);
  return { vectors, counts: { embedded: missing.size, cached: chunks.length - missing.size } };
}
