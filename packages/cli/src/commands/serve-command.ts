import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '@monorag/mcp';
import { createProjectContext } from '../project-context.js';
import { openServedProject } from '../served-project.js';

/** Options of `monorag serve`. */
export interface ServeCommandOptions {
  dataDir?: string;
  /** Watch the tree and keep the index fresh, building a missing one (default true; `--no-watch` serves the index as it is and refuses a missing one). */
  watch?: boolean;
}

/**
 * `monorag serve [path]`: an MCP server on stdio for the project's index. stdout carries only JSON-RPC;
 * logs go to stderr. With watching on (the default) it builds the index when there is none, then
 * keeps it up to date from file events; without, it serves the index as it is (a missing one is an
 * `INDEX_NOT_FOUND` error) and `sync_index` updates it on request. Resolves when
 * the client closes the connection.
 */
export async function runServeCommand(project: string | undefined, options: ServeCommandOptions): Promise<void> {
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const watching = options.watch ?? true;
  const served = await openServedProject(context, { watch: watching });
  const server = createMcpServer(served.mcp);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  context.logger.info({ root: context.root, watching }, 'MCP server listening on stdio');
  await closed;
  await server.close();
  await served.close();
}
