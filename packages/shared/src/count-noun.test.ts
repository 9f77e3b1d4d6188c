import { describe, expect, it } from 'vitest';
import { countNoun } from './count-noun.js';

describe('countNoun', () => {
  it('puts the noun in the singular for exactly one, else in the plural', () => {
    expect(countNoun(1, 'file')).toBe('1 file');
    expect(countNoun(0, 'file')).toBe('0 files');
    expect(countNoun(2, 'file job')).toBe('2 file jobs');
    expect(countNoun(3, 'entry', 'entries')).toBe('3 entries');
  });
});
