import { InvalidArgumentError } from 'commander';
import { parseDecimal } from '@monorag/shared';

/**
 * `value` as a number when it is written in decimal digits alone ({@link parseDecimal}) and is a safe
 * integer, else NaN: as the REST and MCP interfaces take a count.
 */
function decimalInteger(value: string): number {
  const n = parseDecimal(value, { fraction: false });
  return Number.isSafeInteger(n) ? n : NaN;
}

/** Commander parser for a whole number >= 1 in decimal digits; the error names the flag's expectation. */
export function parsePositiveInt(value: string): number {
  const n = decimalInteger(value);
  if (!(n >= 1)) throw new InvalidArgumentError(`expected a whole number >= 1 in decimal digits, got "${value}".`);
  return n;
}

/**
 * A commander parser for a whole number from 1 to `max` in decimal digits (e.g. a debounce in ms: timers
 * cannot wait longer than 2^31 - 1 ms, and Node turns a longer wait into 1 ms with only a warning).
 */
export function parseIntUpTo(max: number): (value: string) => number {
  return (value) => {
    const n = decimalInteger(value);
    if (!(n >= 1 && n <= max)) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}, got "${value}".`);
    return n;
  };
}

/** Commander parser for a TCP port, 1-65535. */
export function parsePort(value: string): number {
  const n = decimalInteger(value);
  if (!(n >= 1 && n <= 65_535)) throw new InvalidArgumentError(`expected a port from 1 to 65535, got "${value}".`);
  return n;
}
