import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Embedder, EmbedderInfo } from '@monorag/embedder-client';

/** An embedder with a persistent cache, and counters for the eval report. */
export interface CachedEmbedder extends Embedder {
  /** Texts sent to the model since creation. */
  readonly embedded: number;
}

/**
 * Wraps an embedder with a persistent cache keyed by sha256(text): one append-only file per model
 * (`<dir>/<model>-<dim>.bin`, records of 32 hash bytes then `dim` little-endian float32). The eval
 * indexes several variants (syntax and windows chunks) and rebuilds them whenever the chunker version
 * changes; chunk texts that did not change are then never embedded twice, across runs too. The store's
 * own embedding cache cannot do this, since it lives in the index file that a new identity replaces.
 */
export async function createCachedEmbedder(inner: Embedder, dir: string): Promise<CachedEmbedder> {
  const info: EmbedderInfo = await inner.info();
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${info.model.replace(/[^\w.-]+/g, '_')}-${info.dim}.bin`);
  const record = 32 + info.dim * 4;
  const memo = new Map<string, Float32Array>();
  if (existsSync(file)) {
    const buf = readFileSync(file);
    for (let off = 0; off + record <= buf.length; off += record) {
      const key = buf.subarray(off, off + 32).toString('hex');
      const vec = new Float32Array(info.dim);
      for (let i = 0; i < info.dim; i++) vec[i] = buf.readFloatLE(off + 32 + i * 4);
      memo.set(key, vec);
    }
  }
  let embedded = 0;
  const hash = (text: string): string => createHash('sha256').update(text).digest('hex');
  return {
    get embedded() {
      return embedded;
    },
    info: async () => info,
    vocabulary: () => inner.vocabulary?.() ?? Promise.resolve(undefined),
    async embed(texts) {
      const keys = texts.map(hash);
      const missing = new Map<string, string>();
      keys.forEach((key, i) => {
        if (!memo.has(key) && !missing.has(key)) missing.set(key, texts[i]!);
      });
      if (missing.size > 0) {
        const vectors = await inner.embed([...missing.values()]);
        embedded += missing.size;
        const out = Buffer.alloc(record * missing.size);
        let i = 0;
        for (const key of missing.keys()) {
          const vec = vectors[i]!;
          memo.set(key, vec);
          out.write(key, i * record, 'hex');
          for (let d = 0; d < info.dim; d++) out.writeFloatLE(vec[d]!, i * record + 32 + d * 4);
          i++;
        }
        appendFileSync(file, out);
      }
      return keys.map((key) => memo.get(key)!);
    },
  };
}
