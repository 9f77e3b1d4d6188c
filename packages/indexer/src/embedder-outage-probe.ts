import type { Embedder } from '@monorag/embedder-client';
import { ErrorCode, isMonoragError } from '@monorag/shared';
import type { OutageProbe } from './index-scheduler.js';

/** Options of {@link embedderOutageProbe}. */
export interface EmbedderOutageProbeOptions {
  /** Who is checked, for the log; default `the embedding server`. */
  name?: string;
  /** Time between health checks while the embedder is down, in ms; default 1,000. */
  intervalMs?: number;
}

/**
 * The {@link OutageProbe} of an embedder, for the index scheduler: a run that failed with
 * `EMBEDDER_UNAVAILABLE` (the server unreachable or failing, or its circuit open) is retried as soon as
 * `embedder.probe()` (a health request, no embedding) answers again, which also lets the embedder's
 * circuit admit the run's first request at once. Undefined for an embedder without `probe` (in
 * process, or the managed local server, which a run starts again by itself): the backoff alone applies.
 */
export function embedderOutageProbe(
  embedder: Embedder,
  { name = 'the embedding server', intervalMs = 1000 }: EmbedderOutageProbeOptions = {},
): OutageProbe | undefined {
  const probe = embedder.probe?.bind(embedder);
  if (!probe) return undefined;
  return {
    name,
    intervalMs,
    covers: (error) => isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE),
    check: probe,
  };
}
