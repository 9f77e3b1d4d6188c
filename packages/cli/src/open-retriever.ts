import { existsSync } from 'node:fs';
import { checkEmbedderIdentity, type Embedder } from '@monorag/embedder-client';
import { currentCommit, indexLockHolder, pathQueueLength } from '@monorag/indexer';
import { createRetriever, readIndexFreshness, type IndexFreshness, type Retriever } from '@monorag/retriever';
import { ErrorCode, MonoragError } from '@monorag/shared';
import type { ChunkStore } from '@monorag/store';
import { createProjectEmbedder } from './embedder-factory.js';
import type { ProjectContext } from './project-context.js';
import { openProjectStore } from './store-factory.js';
import { countUntrackedPending } from './untracked-pending.js';

/** A project's index opened for queries. */
export interface OpenIndex {
  store: ChunkStore;
  retriever: Retriever;
  readFreshness: () => Promise<IndexFreshness>;
  close(): Promise<void>;
}

/**
 * Opens a project's index for reading and wires the retriever. The embedder is connected on the
 * first dense query only, and checked against the index identity then. `existing` reuses a store
 * already open (e.g. the indexer's, in `serve --watch`); closing the result then closes it.
 * @throws MonoragError `INDEX_NOT_FOUND` when the project has not been indexed.
 */
export async function openRetriever(context: ProjectContext, existing?: ChunkStore): Promise<OpenIndex> {
  if (!existing && context.config.store.kind === 'sqlite' && !existsSync(context.storeFile)) {
    throw new MonoragError(
      ErrorCode.INDEX_NOT_FOUND,
      `No index for ${context.root} (looked for ${context.storeFile}). Run \`monorag index ${context.root}\` first.`,
    );
  }
  // store.kind picks SQLite (the file above) or the project's Qdrant collection (INDEX_NOT_FOUND when it has none).
  const store = existing ?? (await openProjectStore(context));
  let checked: Promise<Embedder> | undefined;
  const getEmbedder = (): Promise<Embedder> => {
    checked ??= (async () => {
      const embedder = createProjectEmbedder(context);
      const { model, dim } = store.identity;
      checkEmbedderIdentity(await embedder.info(), { model, dim, reindexCommand: `monorag index --rebuild ${context.root}` }, context.config.embedding.url);
      return embedder;
    })();
    checked.catch(() => {
      checked = undefined;
    });
    return checked;
  };
  const retriever = createRetriever({ store, getEmbedder, limits: context.config.search, logger: context.logger });
  // Freshness judged against the work tree: HEAD, paths queued by git hooks, untracked files changed since the last run, a run in another process.
  const readFreshness = async (): Promise<IndexFreshness> =>
    readIndexFreshness(store, {
      headCommit: await currentCommit(context.root),
      pendingChanges: pathQueueLength(context.dataDir) + (await countUntrackedPending(context, store)),
      indexing: indexLockHolder(context.dataDir) !== null,
    });
  return { store, retriever, readFreshness, close: () => store.close() };
}
