import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '@monorag/mcp';
import { openRetriever } from '../open-retriever.js';
import { createProjectContext } from '../project-context.js';
import { CLI_VERSION } from '../version.js';

/** Options of `monorag serve`. */
export interface ServeCommandOptions {
  dataDir?: string;
}

/**
 * `monorag serve [path]`: an MCP server on stdio for the project's index. stdout carries only JSON-RPC;
 * logs go to stderr. Resolves when the client closes the connection.
 */
export async function runServeCommand(project: string | undefined, options: ServeCommandOptions): Promise<void> {
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const index = await openRetriever(context);
  const server = createMcpServer({
    retriever: index.retriever,
    root: context.root,
    readFreshness: index.readFreshness,
    version: CLI_VERSION,
    maxLimit: context.config.search.maxLimit,
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  context.logger.info({ root: context.root }, 'MCP server listening on stdio');
  await closed;
  await server.close();
  await index.close();
}
