import { existsSync } from 'node:fs';
import { ErrorCode, MonoragError, errorMessage, type IndexIdentity } from '@monorag/shared';
import { deleteQdrantIndex, deleteStoreFiles, openQdrantStore, openSqliteStore, replaceStoreFile, type ChunkStore } from '@monorag/store';
import { checkIndexFileOwner, checkIndexOwner, recordIndexOwner } from './index-owner.js';
import type { ProjectContext } from './project-context.js';
import { projectKey } from './project-key.js';

async function qdrantOptions(context: ProjectContext) {
  const { url, apiKey, collectionPrefix } = context.config.store.qdrant;
  if (!url) {
    throw new MonoragError(ErrorCode.CONFIG_INVALID, 'store.kind is "qdrant" but no Qdrant URL is configured: set QDRANT_URL (or store.qdrant.url in monorag.json).');
  }
  return { url, apiKey, collectionPrefix, project: await projectKey(context), logger: context.logger };
}

/**
 * Opens the store that configuration picks (`store.kind`): the project's SQLite file, or its Qdrant
 * collection. With `identity` the index is created or checked (and a SQLite file records the project
 * root, see `recordIndexOwner`); without, the stored one is adopted.
 * @throws MonoragError `CONFIG_INVALID` (qdrant without URL), `INVALID_ARGUMENT` (the SQLite file belongs
 *   to another project), and the stores' errors.
 */
export async function openProjectStore(context: ProjectContext, identity?: IndexIdentity): Promise<ChunkStore> {
  if (context.config.store.kind === 'qdrant') return openQdrantStore({ ...(await qdrantOptions(context)), identity });
  checkIndexFileOwner(context);
  const store = await openSqliteStore({ file: context.storeFile, identity, logger: context.logger });
  try {
    await (identity ? recordIndexOwner(context, store) : checkIndexOwner(context, store));
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/**
 * Deletes the project's index in the configured store (for `--rebuild`).
 * @throws MonoragError `INVALID_ARGUMENT` when the SQLite file belongs to another project (it is kept).
 */
export async function deleteProjectStore(context: ProjectContext): Promise<void> {
  if (context.config.store.kind === 'qdrant') await deleteQdrantIndex(await qdrantOptions(context));
  else {
    checkIndexFileOwner(context);
    deleteStoreFiles(context.storeFile);
  }
}

/** The Redis URL of the BullMQ queue. @throws MonoragError `CONFIG_INVALID` when none is configured. */
export function redisUrlOf(context: ProjectContext): string {
  const url = context.config.queue.redisUrl;
  if (!url) throw new MonoragError(ErrorCode.CONFIG_INVALID, 'The BullMQ queue needs Redis: set REDIS_URL (or queue.redisUrl in monorag.json).');
  return url;
}

/**
 * Starts the project's index anew for the queue's `jobs enqueue --rebuild`: an empty index the workers
 * fill job by job. A SQLite index is replaced by a new file that carries the old one's embedding cache
 * over (built beside it as `<index file>.rebuild`, then renamed over it, as the in-process rebuild swaps
 * its file in; running workers and servers follow the new inode), so chunk texts the old index had
 * embedded are not sent to the model again; a damaged old file only costs the cache. A Qdrant index is
 * deleted (its collection and cache go).
 * @param identity the identity of the new index (model, dimension, chunker version)
 * @returns the number of embedding-cache entries carried over, or null when none could be (Qdrant, no
 *   old file, an old file that could not be read: `reason` says why)
 * @throws MonoragError `INVALID_ARGUMENT` when the SQLite file belongs to another project (it is kept).
 */
export async function rebuildProjectStore(context: ProjectContext, identity: IndexIdentity): Promise<{ carried: number | null; reason?: string }> {
  if (context.config.store.kind === 'qdrant' || !existsSync(context.storeFile)) {
    await deleteProjectStore(context);
    return { carried: null };
  }
  checkIndexFileOwner(context);
  const next = `${context.storeFile}.rebuild`;
  deleteStoreFiles(next);
  const fresh = await openSqliteStore({ file: next, identity, logger: context.logger });
  let carried: number | null = null;
  let reason: string | undefined;
  try {
    await recordIndexOwner(context, fresh);
    try {
      carried = await fresh.importEmbeddingCache(context.storeFile);
    } catch (error) {
      // The cache is only a saving: an old index that cannot be read (often the reason to rebuild) is rebuilt without it.
      reason = errorMessage((error as { cause?: unknown }).cause ?? error);
    }
  } finally {
    await fresh.close();
  }
  replaceStoreFile(next, context.storeFile);
  return reason === undefined ? { carried } : { carried, reason };
}
