import type { RequestHandler } from 'express';
import { errorMessage } from '@monorag/shared';

/** What one health probe found: whether the part answers, and a line for people (e.g. `idle; starts on the first dense query`). */
export interface ProbeResult {
  ok: boolean;
  detail: string;
}

/** The probes `/health` runs: does the store answer, does the embedder answer. */
export interface HealthProbes {
  store: () => Promise<ProbeResult>;
  embedder: () => Promise<ProbeResult>;
}

/** Longest a probe may take before it counts as failed, in ms. */
export const PROBE_TIMEOUT_MS = 3000;

/** Runs a probe with a time-out; a throw or a time-out is a failed probe naming why. */
async function runProbe(probe: () => Promise<ProbeResult>, timeoutMs: number): Promise<ProbeResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([probe().catch((error: unknown) => ({ ok: false, detail: errorMessage(error) })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /health` (no token needed): liveness plus the parts. Answers
 * `{"status": "ok" | "degraded", "uptimeSeconds", "store": ProbeResult, "embedder": ProbeResult}`:
 * 200 while the store answers (lexical search works; `degraded` when the embedder does not), 503 when
 * the store does not.
 */
export function createHealthHandler(probes: HealthProbes, startedAt: number, timeoutMs = PROBE_TIMEOUT_MS): RequestHandler {
  return async (_req, res) => {
    const [store, embedder] = await Promise.all([runProbe(probes.store, timeoutMs), runProbe(probes.embedder, timeoutMs)]);
    const status = store.ok && embedder.ok ? 'ok' : 'degraded';
    res.status(store.ok ? 200 : 503).json({ status, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000), store, embedder });
  };
}
