import type { RequestHandler } from 'express';
import { errorMessage } from '@monorag/shared';
import { TOKEN_INDEX } from './bearer-auth.js';

/** What one health probe found: whether the part answers, and a line for people (e.g. `idle; starts on the first dense query`). */
export interface ProbeResult {
  ok: boolean;
  detail: string;
  /**
   * `detail` without internal addresses (URLs, ports, file paths), e.g. `managed embedder answers`: what
   * `/health` shows a client without a token on a gateway bound beyond loopback. Needed whenever
   * `detail` holds such an address; the same as `detail` when absent.
   */
  publicDetail?: string;
}

/** The probes `/health` runs: does the store answer, does the embedder answer, and in the team stack does the file-job queue answer. */
export interface HealthProbes {
  store: () => Promise<ProbeResult>;
  embedder: () => Promise<ProbeResult>;
  /** The file-job queue (Redis), in queue mode; absent with the in-process queue. */
  queue?: () => Promise<ProbeResult>;
}

/** Options of {@link createHealthHandler}. */
export interface HealthRouteOptions {
  /** When the gateway started (ms since the epoch), for `uptimeSeconds`. */
  startedAt?: number;
  /** Longest a probe may take before it counts as failed, in ms; default {@link PROBE_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Whether every client may see the probes' internal details (addresses of the embedder, messages of
   * failed probes): true on a loopback bind. Otherwise only requests with a valid token see them.
   */
  showInternals?: boolean;
}

/** Longest a probe may take before it counts as failed, in ms. */
export const PROBE_TIMEOUT_MS = 3000;

/** `detail` of a probe that threw, for a client that may not see the error's message (it may name hosts and ports). */
const PROBE_FAILED = 'the probe failed; GET /v1/status with a token, or the gateway\'s log, says why';

/** A probe's outcome as shown: `{ok, detail}`, the detail public or internal. */
interface Shown {
  ok: boolean;
  detail: string;
}

/** Runs a probe with a time-out; a throw or a time-out is a failed probe naming why. */
async function runProbe(probe: () => Promise<ProbeResult>, timeoutMs: number): Promise<{ internal: Shown; public: Shown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    const found = await Promise.race([
      probe().catch((error: unknown): ProbeResult => ({ ok: false, detail: errorMessage(error), publicDetail: PROBE_FAILED })),
      timeout,
    ]);
    return { internal: { ok: found.ok, detail: found.detail }, public: { ok: found.ok, detail: found.publicDetail ?? found.detail } };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /health` (no token needed): liveness plus the parts. Answers
 * `{"status": "ok" | "degraded", "uptimeSeconds", "store": {ok, detail}, "embedder": {ok, detail}}` and, in
 * queue mode, `"queue": {ok, detail}`: 200 while the store answers (lexical search works; `degraded` when
 * the embedder or the queue does not: changes are not indexed then), 503 when
 * the store does not. Without `showInternals` (a bind beyond loopback), a request without a valid token
 * gets each probe's `publicDetail`, with no internal URL or port, and no message of a probe that threw.
 */
export function createHealthHandler(
  probes: HealthProbes,
  { startedAt = Date.now(), timeoutMs = PROBE_TIMEOUT_MS, showInternals = true }: HealthRouteOptions = {},
): RequestHandler {
  return async (_req, res) => {
    const [store, embedder, queue] = await Promise.all([
      runProbe(probes.store, timeoutMs),
      runProbe(probes.embedder, timeoutMs),
      probes.queue ? runProbe(probes.queue, timeoutMs) : undefined,
    ]);
    const internal = showInternals || res.locals[TOKEN_INDEX] !== undefined;
    const view = internal ? 'internal' : 'public';
    const status = store.internal.ok && embedder.internal.ok && (queue?.internal.ok ?? true) ? 'ok' : 'degraded';
    res.status(store.internal.ok ? 200 : 503).json({
      status, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000), store: store[view], embedder: embedder[view], ...(queue ? { queue: queue[view] } : {}),
    });
  };
}
