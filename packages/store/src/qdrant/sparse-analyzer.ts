import type { QdrantClient } from '@qdrant/js-client-rest';
import type { Logger } from '@monorag/shared';
import { TERM_ANALYZER } from '../code-terms.js';
import { metaPoint, metaPointId, payloadChunk, SPARSE_VECTOR } from './chunk-payload.js';
import { docIs } from './qdrant-filter.js';
import { scrollPages } from './scroll-pages.js';
import { chunkSparseVector } from './sparse-bm25.js';

/** Metadata key holding the {@link TERM_ANALYZER} the sparse BM25 vectors were computed with. */
export const SPARSE_ANALYZER_KEY = 'sparse.analyzer';

/**
 * Makes the collection's sparse BM25 vectors match the current {@link TERM_ANALYZER}: when the
 * collection records another analyzer (or none), every chunk point's sparse vector is recomputed
 * from its payload and replaced (`PUT points/vectors`, `pageSize` points per request), then the
 * analyzer is recorded. Dense vectors are untouched: no model call, no re-index.
 * @returns the number of chunk points re-encoded (0 when current).
 */
export async function ensureSparseAnalyzer(client: QdrantClient, collection: string, pageSize: number, logger?: Logger): Promise<number> {
  const [meta] = await client.retrieve(collection, { ids: [metaPointId(SPARSE_ANALYZER_KEY)], with_payload: true, with_vector: false });
  if (meta?.payload?.value === TERM_ANALYZER) return 0;
  let done = 0;
  for await (const page of scrollPages(client, collection, { must: [docIs('chunk')] }, { pageSize })) {
    if (page.length === 0) continue;
    await client.updateVectors(collection, {
      wait: true,
      points: page.map((point) => ({ id: point.id, vector: { [SPARSE_VECTOR]: chunkSparseVector(payloadChunk(point.payload)) } })),
    });
    done += page.length;
  }
  await client.upsert(collection, { wait: true, points: [metaPoint(SPARSE_ANALYZER_KEY, TERM_ANALYZER)] });
  if (done > 0) logger?.info({ collection, chunks: done, to: TERM_ANALYZER }, 'sparse vectors re-encoded for a new term analyzer');
  return done;
}
