import { describe, expect, it } from 'vitest';
import { estimateTokens } from './estimate-tokens.js';

describe('estimateTokens', () => {
  it('counts letter runs by camel-case hump, ceil(length / 4) each', () => {
    expect(estimateTokens('return')).toBe(2);
    expect(estimateTokens('parseHeaders')).toBe(4); // parse (2) + Headers (2)
    expect(estimateTokens('HTTPServer')).toBe(3);
  });

  it('counts digit runs by ceil(length / 3) and each symbol as 1', () => {
    expect(estimateTokens('12345')).toBe(2);
    expect(estimateTokens('a_b')).toBe(3);
    expect(estimateTokens('f(x) => x + 1;')).toBe(10);
  });

  it('counts nothing for whitespace and each non-ASCII code unit as 1', () => {
    expect(estimateTokens('  \n\t ')).toBe(0);
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('héllo')).toBe(3); // h, é, llo
  });

  it('is additive over lines', () => {
    const a = 'const total = items.reduce((sum, item) => sum + item.price, 0);';
    const b = 'return total * 1.2;';
    expect(estimateTokens(`${a}\n${b}`)).toBe(estimateTokens(a) + estimateTokens(b));
  });
});
