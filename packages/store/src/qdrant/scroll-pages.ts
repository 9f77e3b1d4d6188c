import type { QdrantClient } from '@qdrant/js-client-rest';
import type { QdrantFilter } from './qdrant-filter.js';

/** One point of a scroll page, as the client returns it. */
export type ScrolledPoint = Awaited<ReturnType<QdrantClient['scroll']>>['points'][number];

/** Options of {@link scrollPages}. */
export interface ScrollPagesOptions {
  /** Points per request. */
  pageSize: number;
  /** Named vectors to return with each point (none when omitted). */
  withVectors?: string[];
}

/**
 * Every point of `collection` matching `filter`, page by page (`POST points/scroll`, following
 * `next_page_offset`), with payloads. A page is yielded before the next is asked for, so a caller can
 * write per page without holding the whole collection.
 */
export async function* scrollPages(client: QdrantClient, collection: string, filter: QdrantFilter, { pageSize, withVectors }: ScrollPagesOptions): AsyncGenerator<ScrolledPoint[]> {
  let offset: string | number | undefined;
  do {
    const page = await client.scroll(collection, { filter, limit: pageSize, offset, with_payload: true, with_vector: withVectors ?? false });
    yield page.points;
    offset = (page.next_page_offset ?? undefined) as string | number | undefined;
  } while (offset !== undefined);
}
