import express, { type ErrorRequestHandler, type Express, type Request } from 'express';
import { createMcpServer, type McpServerOptions } from '@monorag/mcp';
import { errorMessage, type Logger } from '@monorag/shared';
import { identifyClient, requireToken } from './bearer-auth.js';
import { isLoopbackHost } from './bind-safety.js';
import { createFileHandler } from './file-route.js';
import { createGatewayMetrics, type GatewayMetrics } from './gateway-metrics.js';
import { createHealthHandler, type HealthProbes } from './health-route.js';
import { hostValidation } from './host-validation.js';
import { sendError, sendThrown } from './http-error.js';
import { jsonBody, jsonBodyErrors, requireJsonBody } from './json-body.js';
import { jsonRpcBodyErrors } from './json-rpc-error.js';
import { createMcpSessions, type McpSessions } from './mcp-sessions.js';
import { createRateLimiter } from './rate-limiter.js';
import { requestLog } from './request-log.js';
import { createSearchHandler } from './search-route.js';
import { createStatusHandler } from './status-route.js';

/** Options of {@link createGatewayApp}. */
export interface GatewayOptions {
  /** The served project: each MCP session's server is `createMcpServer(project)`; REST reads the same parts. */
  project: McpServerOptions;
  /** The index's status as `monorag status --json` prints it, for `GET /v1/status`. */
  readStatus: () => Promise<unknown>;
  /** What `/health` asks. */
  probes: HealthProbes;
  /** Accepted bearer tokens; empty: no authentication (the CLI then binds loopback only). */
  tokens?: readonly string[];
  /** Requests per client (token, else IP) per window, and the window in ms. */
  rateLimit?: { max: number; windowMs: number };
  /** Cap on open MCP sessions, and the idle time (ms) after which one is closed. */
  sessions?: { max: number; idleMs: number };
  /** The address the server binds: on a loopback one, requests must name a loopback Host (DNS rebinding protection). */
  host?: string;
  /** Longest `query` of `POST /v1/search`, in characters (`search.maxQueryChars`); longer is 400 naming `query`. */
  maxQueryChars?: number;
  logger: Logger;
}

/** The gateway's Express app and the state it owns. */
export interface GatewayApp {
  app: Express;
  metrics: GatewayMetrics;
  sessions: McpSessions;
}

/** Paths that need no token: liveness is polled by orchestrators. */
const OPEN_PATHS: readonly string[] = ['/health'];

/**
 * Requests the rate limit neither counts nor refuses: `/health` and `/metrics` (polled by orchestrators
 * and Prometheus, cheap, and a scrape must not spend the budget of clients sharing its address or
 * token; `/metrics` still needs a token when tokens are configured), and `DELETE /mcp`, which closes
 * a session: refusing it would leave sessions open up to `maxSessions` and lock new clients out.
 */
function isRateExempt(req: Request): boolean {
  return req.path === '/health' || req.path === '/metrics' || (req.method === 'DELETE' && req.path === '/mcp');
}

/** What the gateway serves, for the 404's message. */
const ROUTES = 'POST /v1/search, GET /v1/status, GET /v1/file, POST|GET|DELETE /mcp (MCP Streamable HTTP), GET /health, GET /metrics';

/**
 * Builds the HTTP gateway: MCP over Streamable HTTP at `/mcp` (the tools of `monorag serve`), REST at
 * `/v1` (`POST /v1/search`, `GET /v1/status`, `GET /v1/file`), `/health` and `/metrics` (Prometheus text).
 * Every request is counted and timed; then, in order: Host validation (present; a loopback name on a
 * loopback bind), the rate limit per token or IP (not `/health`, `/metrics`, `DELETE /mcp`), the bearer
 * token check (all but `/health`), JSON bodies up to 1 MB. Errors are JSON `{"error": {code, message,
 * field?}}` (see `HttpErrorCode`); an unknown route is 404 `ROUTE_NOT_FOUND`. On `/mcp` the refusals of
 * the MCP layer (Host, session id, session cap) and bodies that are not one JSON-RPC message (not JSON
 * -32700, a batch or no `"jsonrpc": "2.0"` -32600) are JSON-RPC errors, as MCP clients expect.
 */
export function createGatewayApp({
  project, readStatus, probes, tokens = [], rateLimit = { max: 300, windowMs: 60_000 }, sessions: sessionLimits = { max: 64, idleMs: 1_800_000 }, host = '127.0.0.1', maxQueryChars = 2000, logger,
}: GatewayOptions): GatewayApp {
  const metrics = createGatewayMetrics();
  // One timed retriever for REST and every MCP session alike.
  const served: McpServerOptions = { ...project, retriever: metrics.timeSearches(project.retriever) };
  const sessions = createMcpSessions({
    createServer: () => createMcpServer(served),
    maxSessions: sessionLimits.max,
    idleMs: sessionLimits.idleMs,
    logger,
    onCount: (open) => metrics.sessions.set(open),
  });
  const app = express();
  app.disable('x-powered-by');
  app.use(metrics.middleware, requestLog(logger));
  app.use(hostValidation({ loopbackOnly: isLoopbackHost(host) }));
  app.use(identifyClient(tokens), createRateLimiter({ ...rateLimit, exempt: isRateExempt }), requireToken(tokens, OPEN_PATHS));
  app.use(jsonBody(), jsonRpcBodyErrors(logger));

  app.all('/mcp', (req, res) => sessions.handle(req, res, req.body));
  app.post('/v1/search', requireJsonBody(), createSearchHandler(served, { maxQueryChars }));
  app.get('/v1/status', createStatusHandler(readStatus));
  app.get('/v1/file', createFileHandler(served));
  app.get('/health', createHealthHandler(probes, { showInternals: isLoopbackHost(host) }));
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  app.use((req, res) => sendError(res, 404, 'ROUTE_NOT_FOUND', `No route ${req.method} ${req.path}. The gateway serves ${ROUTES}.`));

  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    logger.error({ method: req.method, path: req.path, err: errorMessage(error) }, 'unexpected error in a gateway route');
    if (res.headersSent) return res.end();
    sendThrown(res, error);
  };
  app.use(jsonBodyErrors(logger), onError);
  return { app, metrics, sessions };
}
