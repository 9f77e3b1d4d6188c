import { checkBindSafety, startGateway } from '@monorag/gateway';
import { createHealthProbes } from '../health-probes.js';
import { createProjectContext } from '../project-context.js';
import { openServedProject } from '../served-project.js';
import { readStatusReport } from './status-command.js';
import { settingLabel } from '../setting-label.js';

/** Options of `monorag gateway`. */
export interface GatewayCommandOptions {
  dataDir?: string;
  /** TCP port (default `gateway.port`, 7700). */
  port?: number;
  /** Address to bind (default `gateway.host`, 127.0.0.1). */
  host?: string;
  /** Serve a non-loopback address without tokens. */
  insecure?: boolean;
  /** Watch the tree and keep a SQLite index fresh, building a missing one (default true; `--no-watch` serves the index as it is and refuses a missing one). */
  watch?: boolean;
  /** Resolves when the gateway should stop; default the first SIGTERM or SIGINT. */
  stopSignal?: Promise<string>;
}

/** The first of SIGTERM and SIGINT, by name. */
function firstSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      resolve(signal);
    };
    process.once('SIGTERM', on);
    process.once('SIGINT', on);
  });
}

/**
 * `monorag gateway [path]`: the HTTP gateway for the project's index: MCP over Streamable HTTP at /mcp
 * (the tools of `monorag serve`), REST at /v1, /health and /metrics. Prints one line with its URL on
 * stderr (logs go to stderr too). Runs until SIGTERM or SIGINT, then says so on stderr, answers
 * `sync_index` calls waiting for a run with a `SHUTTING_DOWN` error, stops an index run in progress
 * (what it wrote stays, as with Ctrl-C in `monorag index`), lets other requests finish (5 s at most),
 * closes the MCP sessions, the HTTP server, the watcher and the store. The managed embedding server is
 * shared by every project of the user and stops by itself when idle, so it is left running.
 * @throws MonoragError `INVALID_ARGUMENT` (exit 2) for a non-loopback `--host` without a token and without
 *   `--insecure`, or a port in use; the errors of opening the index.
 */
export async function runGatewayCommand(project: string | undefined, options: GatewayCommandOptions): Promise<void> {
  const context = createProjectContext({
    project,
    argName: '[path]',
    overrides: { dataDir: options.dataDir, gateway: { port: options.port, host: options.host } },
  });
  const { gateway: settings } = context.config;
  // Refused before the index is opened or anything listens.
  // The host and port named as the user set them (flag, environment or monorag.json) in refusals and bind errors.
  const hostSetting = settingLabel(context, ['gateway', 'host'], '--host', settings.host);
  const portSetting = settingLabel(context, ['gateway', 'port'], '--port', settings.port);
  const warning = checkBindSafety({ host: settings.host, tokens: settings.tokens, insecure: options.insecure ?? false, hostSetting });
  const watching = options.watch ?? true;
  const served = await openServedProject(context, { watch: watching });
  try {
    const running = await startGateway({
      project: served.mcp,
      // The freshness of the tools (index_status), which knows the watcher: the index's own counts the work tree itself.
      readStatus: () => readStatusReport(context, served.index, served.mcp.readFreshness),
      probes: createHealthProbes(context, served.index),
      tokens: settings.tokens,
      rateLimit: { max: settings.rateLimit, windowMs: settings.rateWindowSeconds * 1000 },
      sessions: { max: settings.maxSessions, idleMs: settings.sessionIdleSeconds * 1000 },
      host: settings.host,
      port: settings.port,
      hostSetting,
      portSetting,
      maxQueryChars: context.config.search.maxQueryChars,
      logger: context.logger,
    });
    if (warning) context.logger.warn(warning);
    context.logger.info({ root: context.root, url: running.url, tokens: settings.tokens.length, watching }, 'gateway listening');
    process.stderr.write(
      `monorag: gateway for ${context.root} at ${running.url} (MCP ${running.url}/mcp, REST ${running.url}/v1; ${settings.tokens.length > 0 ? 'bearer token required' : 'no token'})\n`,
    );
    const signal = await (options.stopSignal ?? firstSignal());
    context.logger.info({ signal }, 'gateway shutting down');
    process.stderr.write(`monorag: gateway shutting down (${signal}): stopping any index run (what it wrote is kept), answering pending requests, closing the MCP sessions\n`);
    served.interrupt();
    await running.close();
  } finally {
    await served.close();
  }
}
