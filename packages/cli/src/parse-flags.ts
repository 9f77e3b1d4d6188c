import { InvalidArgumentError } from 'commander';

/** Commander parser for a whole number >= 1; the error names the flag's expectation. */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number >= 1, got "${value}".`);
  return n;
}
