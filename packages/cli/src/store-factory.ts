import { ErrorCode, MonoragError, type IndexIdentity } from '@monorag/shared';
import { deleteQdrantIndex, deleteStoreFiles, openQdrantStore, openSqliteStore, type ChunkStore } from '@monorag/store';
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
