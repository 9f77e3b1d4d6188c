import { createMcpServer, createStdioTransport, createTrackedTransport } from '@monorag/mcp';
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
 * `INDEX_NOT_FOUND` error) and `sync_index` updates it on request. A line of stdin that is not a JSON-RPC
 * message is answered with a JSON-RPC error (-32700, -32600) and a warning on stderr, and serving goes
 * on. Resolves when the client closes the connection: when stdin ends, the requests received before
 * are answered first, for up to the embedding request time-out (`embedding.timeoutMs`, the longest a
 * search waits for its query vector); past it the rest are dropped, and a warning on stderr says how many.
 */
export async function runServeCommand(project: string | undefined, options: ServeCommandOptions): Promise<void> {
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const watching = options.watch ?? true;
  const served = await openServedProject(context, { watch: watching });
  const server = createMcpServer(served.mcp);
  const stdio = createStdioTransport({
    onReject: (reply) => context.logger.warn({ id: reply.id, code: reply.error.code }, `rejected a message on stdin: ${reply.error.message}`),
  });
  const transport = createTrackedTransport(stdio);
  const closed = new Promise<'transport' | 'stdin'>((resolve) => {
    transport.onclose = () => resolve('transport');
    void stdio.inputEnded.then(() => resolve('stdin'));
  });
  await server.connect(transport);
  context.logger.info({ root: context.root, watching }, 'MCP server listening on stdio');
  if ((await closed) === 'stdin') {
    const graceMs = context.config.embedding.timeoutMs;
    if (!(await transport.drained(graceMs))) {
      context.logger.warn({ unanswered: transport.pending(), graceMs }, 'stdin closed and requests are still unanswered after the grace period; closing without their answers');
    }
  }
  await server.close();
  await served.close();
}
