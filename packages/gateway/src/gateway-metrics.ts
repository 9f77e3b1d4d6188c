import type { RequestHandler } from 'express';
import type { Retriever } from '@monorag/retriever';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The routes metrics are labelled with; any other path counts as `unmatched` (bounded label values). */
export const METRIC_ROUTES: readonly string[] = ['/mcp', '/v1/search', '/v1/status', '/v1/file', '/health', '/metrics'];

/** The gateway's Prometheus metrics, in a registry of their own. */
export interface GatewayMetrics {
  registry: Registry;
  /** `monorag_http_requests_total{method, route, status}`. */
  requests: Counter<'method' | 'route' | 'status'>;
  /** `monorag_http_request_duration_seconds{method, route, status}`: time to the response's end (an MCP SSE stream's whole life). */
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  /** `monorag_search_duration_seconds{mode, outcome}`: retriever searches from REST and MCP alike. */
  searchDuration: Histogram<'mode' | 'outcome'>;
  /** `monorag_mcp_sessions`: MCP sessions open now. */
  sessions: Gauge;
  /** Middleware counting and timing every request by route and status. */
  middleware: RequestHandler;
  /** `retriever` with every search timed into `searchDuration`. */
  timeSearches(retriever: Retriever): Retriever;
}

/**
 * Creates the metrics (plus prom-client's default process metrics, prefixed `monorag_`). Latency
 * buckets in seconds: 5 ms to 10 s for requests and searches.
 */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'monorag_' });
  const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  const requests = new Counter({ name: 'monorag_http_requests_total', help: 'HTTP requests by method, route and status.', labelNames: ['method', 'route', 'status'] as const, registers: [registry] });
  const requestDuration = new Histogram({
    name: 'monorag_http_request_duration_seconds', help: 'HTTP request latency in seconds, by method, route and status.', labelNames: ['method', 'route', 'status'] as const, buckets, registers: [registry],
  });
  const searchDuration = new Histogram({
    name: 'monorag_search_duration_seconds', help: 'Search latency in seconds (REST and MCP), by mode and outcome (ok, error).', labelNames: ['mode', 'outcome'] as const, buckets, registers: [registry],
  });
  const sessions = new Gauge({ name: 'monorag_mcp_sessions', help: 'MCP sessions open.', registers: [registry] });
  const middleware: RequestHandler = (req, res, next) => {
    const end = requestDuration.startTimer();
    const route = METRIC_ROUTES.includes(req.path) ? req.path : 'unmatched';
    let counted = false;
    // 'finish' when the response was sent, 'close' alone when the client went away first.
    const count = (): void => {
      if (counted) return;
      counted = true;
      const labels = { method: req.method, route, status: String(res.statusCode) };
      requests.inc(labels);
      end(labels);
    };
    res.once('finish', count);
    res.once('close', count);
    next();
  };
  const timeSearches = (retriever: Retriever): Retriever => ({
    search: async (request, trace) => {
      const end = searchDuration.startTimer();
      try {
        const response = await retriever.search(request, trace);
        end({ mode: response.mode, outcome: 'ok' });
        return response;
      } catch (error) {
        end({ mode: request.mode ?? 'hybrid', outcome: 'error' });
        throw error;
      }
    },
  });
  return { registry, requests, requestDuration, searchDuration, sessions, middleware, timeSearches };
}
