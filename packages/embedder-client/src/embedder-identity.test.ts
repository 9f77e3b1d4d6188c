import { ErrorCode } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { checkEmbedderIdentity } from './embedder-identity.js';

describe('checkEmbedderIdentity', () => {
  const expected = { model: 'sentence-transformers/all-MiniLM-L6-v2', dim: 384, reindexCommand: 'monorag index --rebuild /src/app' };

  it('accepts the same model and dimension', () => {
    expect(() => checkEmbedderIdentity({ model: expected.model, dim: 384 }, expected)).not.toThrow();
  });

  it('names both identities and the re-index command, and the URL only when there is one', () => {
    let error: unknown;
    try {
      checkEmbedderIdentity({ model: 'other', dim: 768 }, expected);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: ErrorCode.INDEX_IDENTITY_MISMATCH,
      message:
        'The index was built with sentence-transformers/all-MiniLM-L6-v2 (384 dims) but the embedding server runs other (768 dims). ' +
        'Re-index with `monorag index --rebuild /src/app`, or point EMBEDDING_URL at a server with the index\'s model.',
    });
    expect(() => checkEmbedderIdentity({ model: 'other', dim: 384 }, expected, 'http://h:1')).toThrow('the embedding server at http://h:1 runs other (384 dims)');
  });
});
