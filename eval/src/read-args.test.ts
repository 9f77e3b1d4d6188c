import { describe, expect, it } from 'vitest';
import { readArgs } from './read-args.js';

const config = { options: { check: { type: 'boolean' as const, default: false }, only: { type: 'string' as const } } };

describe('readArgs', () => {
  it('parses known flags', () => {
    const read = readArgs(['--check', '--only', 'hybrid,dense'], config);
    expect(read.kind).toBe('ok');
    if (read.kind === 'ok') expect(read.parsed.values).toEqual({ check: true, only: 'hybrid,dense' });
  });

  it('answers help for --help and -h instead of failing on them', () => {
    expect(readArgs(['--help'], config)).toEqual({ kind: 'help' });
    expect(readArgs(['--check', '-h'], config)).toEqual({ kind: 'help' });
  });

  it('names an unknown flag instead of throwing', () => {
    const read = readArgs(['--chekc'], config);
    expect(read.kind).toBe('error');
    if (read.kind === 'error') expect(read.message).toContain("'--chekc'");
  });

  it('names a flag that is missing its value', () => {
    const read = readArgs(['--only'], config);
    expect(read.kind).toBe('error');
    if (read.kind === 'error') expect(read.message).toContain('--only');
  });
});
