import { existsSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveLanguageId } from '@monorag/chunker';
import { createMcpServer } from '@monorag/mcp';
import { createIndexControl } from '../index-control.js';
import { openRetriever } from '../open-retriever.js';
import { createProjectContext } from '../project-context.js';
import { createReadablePredicate } from '../readable-predicate.js';
import { openProjectIndexer, type ProjectIndexer } from '../project-indexer.js';
import { CLI_VERSION } from '../version.js';
import { watchProject, type WatchedProject } from '../watch-project.js';

/** Options of `monorag serve`. */
export interface ServeCommandOptions {
  dataDir?: string;
  /** Watch the tree and keep the index fresh (default true; `--no-watch` turns it off). */
  watch?: boolean;
}

/**
 * `monorag serve [path]`: an MCP server on stdio for the project's index. stdout carries only JSON-RPC;
 * logs go to stderr. With watching on (the default) it builds the index when there is none, then
 * keeps it up to date from file events; without, `sync_index` updates it on request. Resolves when
 * the client closes the connection.
 */
export async function runServeCommand(project: string | undefined, options: ServeCommandOptions): Promise<void> {
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const watching = options.watch ?? true;
  let indexer: ProjectIndexer | undefined;
  let watched: WatchedProject | undefined;
  let starting: Promise<WatchedProject> | undefined;
  const startWatched = (watch: boolean): Promise<WatchedProject> => {
    starting ??= (async () => {
      indexer = await openProjectIndexer(context);
      watched = watchProject(context, indexer, { watch });
      return watched;
    })();
    return starting;
  };
  if (watching || !existsSync(context.storeFile)) {
    // The indexer creates the store, so a missing index is built by the first (full) run.
    await startWatched(watching);
  }
  const opened = indexer;
  const index = await openRetriever(context, opened ? { store: opened.store, follow: () => opened.follow() } : undefined);
  const control = createIndexControl({ context, store: index.store, watched: () => startWatched(false), current: () => watched });
  const server = createMcpServer({
    retriever: index.retriever,
    root: context.root,
    readFreshness: control.readFreshness,
    indexControl: control,
    version: CLI_VERSION,
    maxLimit: context.config.search.maxLimit,
    isReadable: createReadablePredicate(context),
    resolveLanguage: resolveLanguageId,
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  context.logger.info({ root: context.root, watching }, 'MCP server listening on stdio');
  await closed;
  await server.close();
  await watched?.close();
  await index.close();
  if (indexer && indexer.store !== index.store) await indexer.close();
}
