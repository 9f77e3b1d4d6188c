import { ErrorCode, MonoragError } from '@monorag/shared';
import type { EmbedderInfo } from './embedder.js';

/** The part of an index's identity that the embedder decides: model id and vector dimension. */
export interface ExpectedIdentity {
  /** Model id the index was built with, e.g. `sentence-transformers/all-MiniLM-L6-v2`. */
  model: string;
  /** Vector dimension of the index. */
  dim: number;
  /** The command that rebuilds the index, shown in the error, e.g. `monorag index --rebuild ~/src/app`. */
  reindexCommand?: string;
}

/**
 * Checks that an embedding server produces vectors of the index's identity (DESIGN.md: vectors of
 * two models never meet).
 * @throws MonoragError `INDEX_IDENTITY_MISMATCH` naming both models and dimensions, the server's
 *   URL (when given: a managed local server has none the user set), and how to re-index.
 */
export function checkEmbedderIdentity(info: Pick<EmbedderInfo, 'model' | 'dim'>, expected: ExpectedIdentity, url?: string): void {
  if (info.model === expected.model && info.dim === expected.dim) return;
  const reindex = expected.reindexCommand ?? 'monorag index --rebuild <project>';
  throw new MonoragError(
    ErrorCode.INDEX_IDENTITY_MISMATCH,
    `The index was built with ${expected.model} (${expected.dim} dims) but the embedding server${url ? ` at ${url}` : ''} runs ${info.model} (${info.dim} dims). ` +
      `Re-index with \`${reindex}\`, or point EMBEDDING_URL at a server with the index's model.`,
  );
}
