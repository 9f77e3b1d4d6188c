import { describe, expect, it } from 'vitest';
import { prefixRange } from './prefix-range.js';

describe('prefixRange', () => {
  it('increments the last code point', () => {
    expect(prefixRange('lib/')).toEqual({ low: 'lib/', high: 'lib0' });
    expect(prefixRange('lib_%')).toEqual({ low: 'lib_%', high: 'lib_&' });
    expect(prefixRange('é')).toEqual({ low: 'é', high: 'ê' });
  });

  it('skips the surrogate range and drops trailing U+10FFFF', () => {
    expect(prefixRange('a\ud7ff')).toEqual({ low: 'a\ud7ff', high: 'a\ue000' });
    expect(prefixRange('a\u{10ffff}')).toEqual({ low: 'a\u{10ffff}', high: 'b' });
  });

  it('handles a prefix of 200,000 characters (a trial overflowed the call stack at about 130,000)', () => {
    const long = `${'p'.repeat(199_999)}😀`;
    const range = prefixRange(long)!;
    expect(range.low).toBe(long);
    expect(range.high).toBe(`${'p'.repeat(199_999)}😁`);
  });

  it('matches everything for the empty prefix', () => {
    expect(prefixRange('')).toBeUndefined();
    expect(prefixRange('\u{10ffff}')).toBeUndefined();
  });
});
