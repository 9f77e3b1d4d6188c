import { existsSync } from 'node:fs';
import { resolveLanguageId } from '@monorag/chunker';
import type { IndexControl, McpServerOptions } from '@monorag/mcp';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { unknownPaths } from '@monorag/indexer';
import { createIndexControl } from './index-control.js';
import { openRetriever, type OpenIndex } from './open-retriever.js';
import type { ProjectContext } from './project-context.js';
import { openProjectIndexer, type ProjectIndexer } from './project-indexer.js';
import { createReadablePredicate } from './readable-predicate.js';
import { CLI_VERSION } from './version.js';
import { watchProject, type WatchedProject } from './watch-project.js';

/** A project opened for serving over MCP (`monorag serve` on stdio, `monorag gateway` over HTTP). */
export interface ServedProject {
  /** What `createMcpServer` takes: the same tools on every transport. */
  mcp: McpServerOptions;
  /** The store the retriever reads (for status and health). */
  index: OpenIndex;
  /** Stops the watcher and closes the stores. */
  close(): Promise<void>;
}

/** Options of {@link openServedProject}. */
export interface ServedProjectOptions {
  /** Watch the tree and keep a SQLite index fresh (a missing one is built first either way). */
  watch: boolean;
}

/**
 * Opens a project for serving. With the SQLite store (the embedded default) it builds a missing index,
 * watches the tree when `watch` is set, and `sync_index` updates it. With `store.kind` `qdrant` (the team
 * stack) it reads the project's Qdrant collection, which `monorag worker`s write: nothing is watched here
 * and `sync_index` answers with how to enqueue the changes (`monorag jobs enqueue`).
 * @throws MonoragError as `openRetriever` and `openProjectIndexer` do (`INDEX_NOT_FOUND` for a Qdrant
 *   project with no collection, `EMBEDDER_UNAVAILABLE` when a missing index must be built, ...).
 */
export async function openServedProject(context: ProjectContext, { watch }: ServedProjectOptions): Promise<ServedProject> {
  if (context.config.store.kind === 'qdrant') {
    const index = await openRetriever(context);
    return { mcp: projectMcpOptions(context, index, queueIndexControl(context, index)), index, close: () => index.close() };
  }
  let indexer: ProjectIndexer | undefined;
  let watched: WatchedProject | undefined;
  let starting: Promise<WatchedProject> | undefined;
  const startWatched = (watchTree: boolean): Promise<WatchedProject> => {
    starting ??= (async () => {
      indexer = await openProjectIndexer(context);
      watched = watchProject(context, indexer, { watch: watchTree });
      return watched;
    })();
    return starting;
  };
  if (watch || !existsSync(context.storeFile)) {
    // The indexer creates the store, so a missing index is built by the first (full) run.
    await startWatched(watch);
  }
  const opened = indexer;
  const index = await openRetriever(context, opened ? { store: opened.store, follow: () => opened.follow() } : undefined);
  const control = createIndexControl({ context, store: index.store, watched: () => startWatched(false), current: () => watched });
  const mcp = { ...projectMcpOptions(context, index, control), readFreshness: control.readFreshness };
  return {
    mcp,
    index,
    close: async () => {
      await watched?.close();
      await index.close();
      if (indexer && indexer.store !== index.store) await indexer.close();
    },
  };
}

/** The MCP server options every served project shares. */
function projectMcpOptions(context: ProjectContext, index: OpenIndex, indexControl: IndexControl): McpServerOptions {
  return {
    retriever: index.retriever,
    root: context.root,
    readFreshness: index.readFreshness,
    indexControl,
    version: CLI_VERSION,
    maxLimit: context.config.search.maxLimit,
    isReadable: createReadablePredicate(context),
    resolveLanguage: resolveLanguageId,
  };
}

/** Index control of a Qdrant index written by workers: status from the store, no updates from here. */
function queueIndexControl(context: ProjectContext, index: OpenIndex): IndexControl {
  return {
    status: async () => ({ index: await index.readFreshness(), watching: 'off', watchedDirectories: 0, lastRun: null, lastError: null }),
    sync: async () => {
      throw new MonoragError(
        ErrorCode.INVALID_ARGUMENT,
        `This server reads the team index in Qdrant, which monorag workers write; it does not index itself. Run \`monorag jobs enqueue ${context.root}\` where the checkout is to queue the changes.`,
      );
    },
    unknownPaths: async (paths) => unknownPaths(context.root, paths, await index.store.listFiles()),
  };
}
