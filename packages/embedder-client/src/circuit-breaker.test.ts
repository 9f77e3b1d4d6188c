import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from './circuit-breaker.js';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('createCircuitBreaker', () => {
  it('opens after failureThreshold consecutive failures and refuses until the cool-down ends', () => {
    const c = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 3, coolDownMs: 10_000, now: c.now });
    for (let i = 0; i < 2; i++) {
      expect(breaker.admit()).toEqual({ admitted: true });
      breaker.recordFailure();
    }
    expect(breaker.state).toBe('closed');
    breaker.admit();
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    c.advance(4_000);
    expect(breaker.admit()).toEqual({ admitted: false, retryInMs: 6_000, failures: 3 });
  });

  it('a success in between resets the count', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 2 });
    breaker.recordFailure();
    breaker.recordSuccess();
    breaker.recordFailure();
    expect(breaker.state).toBe('closed');
  });

  it('after the cool-down admits one probe; a successful probe closes the circuit', () => {
    const c = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, coolDownMs: 500, now: c.now });
    breaker.recordFailure();
    c.advance(500);
    expect(breaker.admit()).toEqual({ admitted: true });
    expect(breaker.state).toBe('half-open');
    expect(breaker.admit().admitted).toBe(false); // only one probe at a time
    breaker.recordSuccess();
    expect(breaker.state).toBe('closed');
    expect(breaker.admit().admitted).toBe(true);
  });

  it('a failed probe opens the circuit for another cool-down', () => {
    const c = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, coolDownMs: 500, now: c.now });
    breaker.recordFailure();
    c.advance(600);
    breaker.admit();
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    c.advance(499);
    expect(breaker.admit()).toMatchObject({ admitted: false, retryInMs: 1 });
    c.advance(1);
    expect(breaker.admit().admitted).toBe(true);
  });

  it('a released probe lets the next call probe', () => {
    const c = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, coolDownMs: 0, now: c.now });
    breaker.recordFailure();
    breaker.admit();
    breaker.release();
    expect(breaker.admit().admitted).toBe(true);
  });

  it('allowTrial ends the cool-down at once: one trial is admitted, and a failed trial opens the circuit anew', () => {
    const c = clock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, coolDownMs: 30_000, now: c.now });
    breaker.recordFailure();
    c.advance(1_000);
    expect(breaker.admit()).toMatchObject({ admitted: false, retryInMs: 29_000 });
    breaker.allowTrial();
    expect(breaker.state).toBe('half-open');
    expect(breaker.admit()).toEqual({ admitted: true });
    expect(breaker.admit().admitted).toBe(false); // still one trial at a time
    breaker.allowTrial(); // a trial is in flight: nothing changes
    expect(breaker.admit().admitted).toBe(false);
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    expect(breaker.admit()).toMatchObject({ admitted: false, retryInMs: 30_000 });
  });

  it('allowTrial does nothing to a closed circuit', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 2 });
    breaker.recordFailure();
    breaker.allowTrial();
    expect(breaker.state).toBe('closed');
    breaker.recordFailure();
    expect(breaker.state).toBe('open'); // the earlier failure still counts
  });
});
