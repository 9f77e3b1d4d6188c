import { describe, expect, it } from 'vitest';
import { ErrorCode, isMonoragError } from '@monorag/shared';
import { createFakeEmbedder } from './fake-embedder.js';
import { dot, embedderContract } from './embedder-contract.js';
import { tokenizeWords } from './tokenize-words.js';

describe('createFakeEmbedder (contract)', () => {
  embedderContract(() => createFakeEmbedder());
});

describe('createFakeEmbedder', () => {
  it('reports its model id and dimension', async () => {
    expect(await createFakeEmbedder({ dim: 16, model: 'm' }).info()).toEqual({ model: 'm', dim: 16, maxSeqLength: 256 });
    expect(await createFakeEmbedder().info()).toEqual({ model: 'fake-hash-embedder', dim: 384, maxSeqLength: 256 });
  });

  it('has no vocabulary unless given one', async () => {
    expect(await createFakeEmbedder().vocabulary?.()).toBeUndefined();
    expect(await createFakeEmbedder({ vocabulary: ['[UNK]', 'parse'] }).vocabulary?.()).toEqual(['[UNK]', 'parse']);
  });

  it('is deterministic across instances', async () => {
    const [a] = await createFakeEmbedder().embed(['function parseHeaders(raw)']);
    const [b] = await createFakeEmbedder().embed(['function parseHeaders(raw)']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });

  it('ranks texts sharing words (also inside identifiers) above unrelated ones', async () => {
    const [query, code, other] = await createFakeEmbedder().embed([
      'parse http headers',
      'function parseHttpHeaders(raw_headers) {}',
      'bake bread with flour',
    ]);
    expect(dot(query!, code!)).toBeGreaterThan(0.5);
    expect(dot(query!, other!)).toBe(0);
  });

  it('gives an empty text a fixed unit vector', async () => {
    const [a, b] = await createFakeEmbedder({ dim: 8 }).embed(['', '  ;; ']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(dot(a!, a!)).toBeCloseTo(1, 6);
  });

  it('rejects a dim that is not a positive integer', () => {
    for (const dim of [0, -1, 2.5]) {
      let caught: unknown;
      try {
        createFakeEmbedder({ dim });
      } catch (error) {
        caught = error;
      }
      expect(isMonoragError(caught, ErrorCode.INVALID_ARGUMENT)).toBe(true);
      expect((caught as Error).message).toContain('dim must be a positive integer');
    }
  });
});

describe('tokenizeWords', () => {
  it('splits camelCase, PascalCase acronyms and snake_case, lower-cased', () => {
    expect(tokenizeWords('parseHTTPHeaders(raw_value) v2')).toEqual([
      'parse',
      'http',
      'headers',
      'parsehttpheaders',
      'raw',
      'value',
      'v2',
    ]);
  });
});
