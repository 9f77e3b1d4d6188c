/**
 * A least-recently-used map from query text to its embedding, so a repeated query (an assistant
 * re-asking with another limit or filter, a client polling for a fresh result) skips the model round
 * trip. Vectors depend only on the model, which is fixed for a retriever's lifetime.
 */
export interface QueryVectorCache {
  get(query: string): Float32Array | undefined;
  set(query: string, vector: Float32Array): void;
  readonly size: number;
}

/** Default number of query vectors kept: 256 x 384 floats is about 400 KB. */
export const QUERY_CACHE_ENTRIES = 256;

/** Creates a {@link QueryVectorCache} holding at most `capacity` entries (0 disables it). */
export function createQueryVectorCache(capacity = QUERY_CACHE_ENTRIES): QueryVectorCache {
  const entries = new Map<string, Float32Array>();
  return {
    get(query) {
      const vector = entries.get(query);
      if (vector !== undefined) {
        // Map keeps insertion order: re-inserting marks the entry most recently used.
        entries.delete(query);
        entries.set(query, vector);
      }
      return vector;
    },
    set(query, vector) {
      if (capacity <= 0) return;
      entries.delete(query);
      entries.set(query, vector);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}
