import { describe, expect, it } from 'vitest';
import { summariseProblems } from './summarise-problems.js';

describe('summariseProblems', () => {
  it('keeps the first two problems of a long quick_check report on one line and counts the rest', () => {
    const report = ['*** in database main ***\nTree 19 page 19 cell 0: invalid page number 4031\nTree 19 page 19 cell 1: invalid page number 4032', ...Array.from({ length: 99 }, (_, i) => `Page ${i + 40} is never used`)];
    expect(summariseProblems(report)).toBe('Tree 19 page 19 cell 0: invalid page number 4031; Tree 19 page 19 cell 1: invalid page number 4032 (and 99 more problems)');
  });

  it('gives a single problem as it is', () => {
    expect(summariseProblems(['database disk image is malformed'])).toBe('database disk image is malformed');
    expect(summariseProblems(['a', 'b', 'c'])).toBe('a; b (and 1 more problem)');
  });
});
