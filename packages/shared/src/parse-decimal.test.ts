import { describe, expect, it } from 'vitest';
import { parseDecimal } from './parse-decimal.js';

describe('parseDecimal', () => {
  it('takes decimal digits, with a fraction unless told not to, and nothing Number() also takes', () => {
    expect([parseDecimal('2000'), parseDecimal('007'), parseDecimal('7.5')]).toEqual([2000, 7, 7.5]);
    expect(parseDecimal('7.5', { fraction: false })).toBeNaN();
    expect(parseDecimal('16', { fraction: false })).toBe(16);
    for (const bad of ['0x10', '1e3', '+5', ' 2000', '2000 ', '', '-1', '.5', '5.', '2_000', 'Infinity']) expect(parseDecimal(bad), bad).toBeNaN();
  });
});
