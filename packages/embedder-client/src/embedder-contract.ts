import { expect, it } from 'vitest';
import { ErrorCode, isMonoragError } from '@monorag/shared';
import type { Embedder } from './embedder.js';

/** Cosine similarity of two unit vectors (their dot product). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * The behaviour every {@link Embedder} must have; call inside a `describe`. `getEmbedder` is called
 * in each test, after the caller's `beforeAll` has run. Test helper, not exported by the package.
 */
export function embedderContract(getEmbedder: () => Embedder): void {
  it('returns one unit vector of info().dim per text, in order', async () => {
    const embedder = getEmbedder();
    const { dim } = await embedder.info();
    const texts = ['parse the HTTP headers', 'bake bread', 'x', 'parse the HTTP headers', 'fn main() {}'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(dim);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 4);
    }
    expect(dot(vectors[0]!, vectors[3]!)).toBeCloseTo(1, 4);
    expect(dot(vectors[0]!, vectors[1]!)).toBeLessThan(0.99);
  });

  it('gives the same vector for a text alone or in a batch', async () => {
    const embedder = getEmbedder();
    const [alone] = await embedder.embed(['read the config file']);
    const [, batched] = await embedder.embed(['something else', 'read the config file']);
    expect(dot(alone!, batched!)).toBeCloseTo(1, 4);
  });

  it('returns [] for no texts', async () => {
    expect(await getEmbedder().embed([])).toEqual([]);
  });

  it('rejects a non-string text with INVALID_ARGUMENT naming its index', async () => {
    const error = await getEmbedder()
      .embed(['ok', 42 as unknown as string])
      .catch((e: unknown) => e);
    expect(isMonoragError(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    expect((error as Error).message).toContain('texts[1]');
  });
}
