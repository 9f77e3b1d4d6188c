import type { Chunk } from '@monorag/shared';
import type { Embedder } from '@monorag/embedder-client';
import type { ChunkStore } from '@monorag/store';

/**
 * Most characters of a chunk sent to the embedder. The model reads at most its maximum sequence
 * length (256 word pieces for all-MiniLM-L6-v2, about 1,000-1,500 characters of code) and drops the
 * rest, so a longer text only costs transfer and tokenizer time. 4,000 leaves a wide margin.
 */
export const MAX_EMBEDDING_CHARS = 4000;

/** The text embedded for a chunk: its context header, a newline, then its content, cut at {@link MAX_EMBEDDING_CHARS}. */
export function embeddingText(chunk: Chunk): string {
  const text = `${chunk.header}\n${chunk.content}`;
  return text.length > MAX_EMBEDDING_CHARS ? text.slice(0, MAX_EMBEDDING_CHARS) : text;
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
    // Sorted by length so that each request's batch pads little: the model pads every text of a
    // forward pass to the longest one.
    const ordered = [...missing.entries()].sort((a, b) => a[1].length - b[1].length);
    const fresh = await embedder.embed(ordered.map(([, text]) => text));
    const entries = new Map<string, Float32Array>();
    ordered.forEach(([hash], i) => entries.set(hash, fresh[i]!));
    await store.putCachedEmbeddings(entries);
    for (const [hash, vector] of entries) known.set(hash, vector);
  }
  const vectors = chunks.map((c) => known.get(c.contentHash)!);
  return { vectors, counts: { embedded: missing.size, cached: chunks.length - missing.size } };
}
