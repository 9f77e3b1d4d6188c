import { ErrorCode, MonoragError } from '@monorag/shared';
import type { Embedder, EmbedderInfo } from './embedder.js';
import { tokenizeWords } from './tokenize-words.js';

/** Options of {@link createFakeEmbedder}. */
export interface FakeEmbedderOptions {
  /** Vector length (buckets of the hashed bag of words). */
  dim?: number;
  /** Model id reported by `info()`; keep it distinct from real models so indexes never mix. */
  model?: string;
  /** What `vocabulary()` returns (a tiny WordPiece vocabulary for tests); default undefined: no vocabulary. */
  vocabulary?: readonly string[];
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A deterministic, offline {@link Embedder} for unit tests: each text becomes a bag of its word
 * tokens (see {@link tokenizeWords}) hashed into `dim` buckets, L2-normalised. Texts sharing words
 * are closer; equal texts get equal vectors; a text without words gets a fixed unit vector.
 * It carries no meaning beyond shared words: tests about meaning must use the real model.
 * `vocabulary()` returns the `vocabulary` option (undefined by default, so chunkers estimate token counts).
 * @throws MonoragError `INVALID_ARGUMENT` when `dim` is not a positive integer or a text is not a string.
 */
export function createFakeEmbedder({ dim = 384, model = 'fake-hash-embedder', vocabulary }: FakeEmbedderOptions = {}): Embedder {
  if (!Number.isInteger(dim) || dim < 1) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `createFakeEmbedder: dim must be a positive integer, got ${dim}.`);
  }
  const info: EmbedderInfo = { model, dim, maxSeqLength: 256 };

  const embedOne = (text: string, index: number): Float32Array => {
    if (typeof text !== 'string') {
      throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `embed(texts): texts[${index}] is ${typeof text}, not a string.`);
    }
    const vector = new Float32Array(dim);
    const tokens = tokenizeWords(text);
    for (const token of tokens.length > 0 ? tokens : ['']) vector[fnv1a(token) % dim]! += 1;
    let norm = 0;
    for (const x of vector) norm += x * x;
    norm = Math.sqrt(norm);
    for (let i = 0; i < dim; i++) vector[i]! /= norm;
    return vector;
  };

  return {
    info: async () => ({ ...info }),
    embed: async (texts) => texts.map(embedOne),
    vocabulary: async () => (vocabulary ? [...vocabulary] : undefined),
  };
}
