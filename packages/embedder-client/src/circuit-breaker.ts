/**
 * How long an open circuit refuses calls by default, in ms: the embedder client's outage window. A
 * BullMQ file job's retries are scheduled to outlast it (see `circuitSafeBackoffMs` in the indexer).
 */
export const CIRCUIT_COOL_DOWN_MS = 30_000;

/** Options of {@link createCircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive failed attempts that open the circuit. */
  failureThreshold?: number;
  /** How long, in ms, an open circuit refuses calls before it lets one probe through; default {@link CIRCUIT_COOL_DOWN_MS}. */
  coolDownMs?: number;
  /** Clock in ms; tests pass their own. */
  now?: () => number;
}

/** `closed`: calls pass. `open`: calls are refused until the cool-down ends. `half-open`: one probe is in flight. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** Whether a call may go ahead; when refused, how long until the next probe may (ms). */
export type Admission = { admitted: true } | { admitted: false; retryInMs: number; failures: number };

/**
 * A circuit breaker for calls to one service. Callers ask {@link CircuitBreaker.admit} before each
 * attempt and report its outcome with `recordSuccess` (the service answered, even with a 4xx),
 * `recordFailure` (it did not, or answered 5xx) or `release` (the attempt ended for a reason that
 * says nothing about the service). `allowTrial` ends an open circuit's cool-down early.
 */
export interface CircuitBreaker {
  admit(): Admission;
  recordSuccess(): void;
  recordFailure(): void;
  release(): void;
  /**
   * Ends an open circuit's cool-down now: the next call is admitted as its trial (half-open), which
   * closes the circuit if it succeeds and opens it for another cool-down if it fails. For a caller that
   * learned by other means (a health check) that the service answers again. Does nothing while the
   * circuit is closed or a trial is in flight.
   */
  allowTrial(): void;
  readonly state: CircuitState;
}

/**
 * Opens after `failureThreshold` consecutive failures; while open, refuses every call for
 * `coolDownMs`; then admits one probe (half-open) and refuses the others until the probe ends: a
 * success closes the circuit, a failure opens it for another `coolDownMs`. The pattern is
 * M. Nygard's, "Release It!" (2007), ch. 5.
 */
export function createCircuitBreaker({
  failureThreshold = 5,
  coolDownMs = CIRCUIT_COOL_DOWN_MS,
  now = Date.now,
}: CircuitBreakerOptions = {}): CircuitBreaker {
  let state: CircuitState = 'closed';
  let failures = 0;
  let openedAt = 0;
  let probing = false;

  const open = (): void => {
    state = 'open';
    openedAt = now();
    probing = false;
  };

  return {
    get state() {
      return state;
    },
    admit(): Admission {
      if (state === 'closed') return { admitted: true };
      const waited = now() - openedAt;
      if (state === 'open' && waited >= coolDownMs) {
        state = 'half-open';
        probing = true;
        return { admitted: true };
      }
      if (state === 'half-open' && !probing) {
        probing = true;
        return { admitted: true };
      }
      return { admitted: false, retryInMs: Math.max(0, coolDownMs - waited), failures };
    },
    recordSuccess(): void {
      state = 'closed';
      failures = 0;
      probing = false;
    },
    recordFailure(): void {
      failures++;
      if (state === 'half-open' || failures >= failureThreshold) open();
    },
    release(): void {
      probing = false;
    },
    allowTrial(): void {
      if (state === 'open') state = 'half-open';
    },
  };
}
