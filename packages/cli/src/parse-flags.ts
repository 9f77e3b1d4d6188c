import { InvalidArgumentError } from 'commander';

/** Commander parser for a whole number >= 1; the error names the flag's expectation. */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number >= 1, got "${value}".`);
  return n;
}

/**
 * A commander parser for a whole number from 1 to `max` (e.g. a debounce in ms: timers cannot wait
 * longer than 2^31 - 1 ms, and Node turns a longer wait into 1 ms with only a warning).
 */
export function parseIntUpTo(max: number): (value: string) => number {
  return (value) => {
    const n = parsePositiveInt(value);
    if (n > max) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}, got "${value}".`);
    return n;
  };
}

/** Commander parser for a TCP port, 1-65535. */
export function parsePort(value: string): number {
  const n = parsePositiveInt(value);
  if (n > 65_535) throw new InvalidArgumentError(`expected a port from 1 to 65535, got "${value}".`);
  return n;
}
