import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseIntUpTo, parsePort, parsePositiveInt } from './parse-flags.js';

describe('flag parsers', () => {
  it('take decimal digits only, as REST and MCP do (trial: --limit 0x10 gave 16 results, 1e1 and " 3" passed)', () => {
    expect(parsePositiveInt('16')).toBe(16);
    expect(parsePositiveInt('007')).toBe(7);
    for (const bad of ['0x10', '0b11', '0o7', '1e1', ' 3', '3 ', '+3', '2.0', '0', '-1', '', 'ten', '99999999999999999999']) {
      expect(() => parsePositiveInt(bad), bad).toThrow(new InvalidArgumentError(`expected a whole number >= 1 in decimal digits, got "${bad}".`));
    }
    expect(parseIntUpTo(60_000)('60000')).toBe(60_000);
    expect(() => parseIntUpTo(60_000)('1e3')).toThrow('expected a whole number from 1 to 60000, got "1e3".');
    expect(() => parseIntUpTo(60_000)('60001')).toThrow('expected a whole number from 1 to 60000, got "60001".');
    expect(parsePort('7700')).toBe(7700);
    expect(() => parsePort('0x1e14')).toThrow('expected a port from 1 to 65535, got "0x1e14".');
  });
});
