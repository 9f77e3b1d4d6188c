import { CIRCUIT_COOL_DOWN_MS } from '@monorag/embedder-client';

/**
 * The delays, in ms, before each retry of a job with `attempts` tries and BullMQ's `exponential`
 * backoff from `backoffMs` (no jitter): `backoffMs * 2^(k-1)` before retry k, for k = 1 .. attempts-1.
 */
export function retryDelaysMs(attempts: number, backoffMs: number): number[] {
  return Array.from({ length: Math.max(0, attempts - 1) }, (_, k) => backoffMs * 2 ** k);
}

/**
 * The smallest first retry delay, in whole seconds (returned in ms), whose exponential retries of a
 * job with `attempts` tries end after the embedder client's open-circuit window (`coolDownMs`,
 * default {@link CIRCUIT_COOL_DOWN_MS}, 30 s).
 *
 * Why: when the embedding server goes down, the client opens its circuit once 5 requests in a row
 * have failed, then fails every call at once for `coolDownMs`. One try of a job makes at most 4
 * failed requests (1 + 3 client retries), so the circuit is open at the latest from the job's second
 * try on. With first delay b, try k+1 starts b * (2^k - 1) ms after the first failure; the last one,
 * b * (2^(attempts-1) - 1), comes b * (2^(attempts-1) - 2) ms after the second try started. For that
 * last try to find the circuit probing again: b * (2^(attempts-1) - 2) > coolDownMs, so
 * b > coolDownMs / (2^(attempts-1) - 2), rounded up to the next whole second (with 2 attempts the
 * bound is b > coolDownMs, for a circuit that other jobs opened). With the defaults (5 attempts, 30 s):
 * 30 / 14 = 2.14 s, so b = 3 s: retries 3 + 6 + 12 + 24 s, the last 45 s after the first failure and
 * at least 42 s after the circuit opened, beyond its 30 s. The old 1 s gave 1 + 2 + 4 + 8 = 15 s, every
 * retry inside the window, so a 20 s outage failed its jobs for good. An outage longer than the
 * window (the probe fails and the circuit opens again) can still fail jobs; `monorag jobs --retry`
 * requeues them. With 1 attempt there is no retry to schedule: returns 0.
 * @throws RangeError when `attempts` is not a positive integer or `coolDownMs` is negative.
 */
export function circuitSafeBackoffMs(attempts: number, coolDownMs: number = CIRCUIT_COOL_DOWN_MS): number {
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`attempts must be a positive integer, got ${attempts}`);
  if (!(coolDownMs >= 0)) throw new RangeError(`coolDownMs must be >= 0, got ${coolDownMs}`);
  if (attempts === 1) return 0;
  const span = Math.max(1, 2 ** (attempts - 1) - 2);
  return (Math.floor(coolDownMs / span / 1000) + 1) * 1000;
}
