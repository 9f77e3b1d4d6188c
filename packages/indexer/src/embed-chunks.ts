import type { Chunk } from '@monorag/shared';
import type { Embedder } from '@monorag/embedder-client';
import type { ChunkStore } from '@monorag/store';
import { throwIfInterrupted } from './run-interrupted.js';

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
 * Texts per embedder call whose vectors are then written to the embedding cache. A file of thousands
 * of chunks (a generated module) is one batch of the indexer; embedding it in slices and caching each
 * as it comes means an interrupted run (Ctrl-C, a newer save taking over, a crash) keeps what was
 * embedded, and the next run takes it from the cache instead of starting over. A run is interrupted
 * only between slices, so the slice bounds how long a newer save waits: 64 texts take about 2 s on
 * 2 CPU cores with all-MiniLM-L6-v2 (about 35 chunks/s), and are two of the HTTP embedder's default
 * 32-text requests, so slicing costs one SQLite transaction per 64 vectors and no model throughput.
 */
export const EMBED_SLICE_TEXTS = 64;

/**
 * Returns one vector per chunk, in order: from the store's embedding cache (keyed by model and
 * content hash) where present, otherwise from the embedder, in slices of {@link EMBED_SLICE_TEXTS}
 * texts (shortest first), each slice's vectors added to the cache as soon as it is embedded.
 * Identical chunk texts are embedded once. An aborted `signal` stops it before the next slice.
 * @throws MonoragError `EMBEDDER_UNAVAILABLE` from the embedder (the slices embedded before stay cached);
 *   `RUN_INTERRUPTED` when `signal` was aborted (the slices embedded before stay cached).
 */
export async function embedChunks(
  chunks: readonly Chunk[],
  store: ChunkStore,
  embedder: Embedder,
  signal?: AbortSignal,
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
    for (let start = 0; start < ordered.length; start += EMBED_SLICE_TEXTS) {
      throwIfInterrupted(signal);
      const slice = ordered.slice(start, start + EMBED_SLICE_TEXTS);
      const fresh = await embedder.embed(slice.map(([, text]) => text));
      const entries = new Map<string, Float32Array>();
      slice.forEach(([hash], i) => entries.set(hash, fresh[i]!));
      await store.putCachedEmbeddings(entries);
      for (const [hash, vector] of entries) known.set(hash, vector);
    }
  }
  const vectors = chunks.map((c) => known.get(c.contentHash)!);
  return { vectors, counts: { embedded: missing.size, cached: chunks.length - missing.size } };
}
