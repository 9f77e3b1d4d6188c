import { describe, expect, it } from 'vitest';
import { comparePaired, signTestP } from './paired-comparison.js';

const row = (ranks: (number | null)[]) => ranks.map((firstHit, i) => ({ id: `q${i}`, firstHit }));

describe('signTestP', () => {
  it('is the exact two-sided binomial probability', () => {
    // 1 of 1: P(X <= 0) * 2 = 2 * 0.5 = 1.
    expect(signTestP(1, 1)).toBe(1);
    // 0 of 5: 2 * 0.5^5 = 0.0625.
    expect(signTestP(0, 5)).toBeCloseTo(0.0625, 12);
    expect(signTestP(5, 5)).toBeCloseTo(0.0625, 12);
    // 2 of 10: 2 * (1 + 10 + 45) / 1024 = 0.109375.
    expect(signTestP(2, 10)).toBeCloseTo(0.109375, 12);
    expect(signTestP(0, 0)).toBe(1);
  });
});

describe('comparePaired', () => {
  it('counts R@5 wins and losses per question and the MRR@10 difference', () => {
    // q0: 1 vs 7 (win at 5), q1: 6 vs 2 (loss), q2: both 1, q3: null vs 12 (both 0), q4: 2 vs null (win).
    const c = comparePaired(row([1, 6, 1, null, 2]), row([7, 2, 1, 12, null]), 1000);
    expect(c.n).toBe(5);
    expect(c.recall5Wins).toBe(2);
    expect(c.recall5Losses).toBe(1);
    expect(c.deltaRecall5).toBeCloseTo(1 / 5, 12);
    // (1 - 1/7) + (1/6 - 1/2) + 0 + 0 + (1/2 - 0) = 0.857142... - 0.333333... + 0.5 = 1.0238095...; / 5.
    expect(c.deltaMrr10).toBeCloseTo((1 - 1 / 7 + 1 / 6 - 1 / 2 + 1 / 2) / 5, 12);
    expect(c.mrr10Interval[0]).toBeLessThanOrEqual(c.deltaMrr10);
    expect(c.mrr10Interval[1]).toBeGreaterThanOrEqual(c.deltaMrr10);
    expect(c.recall5P).toBe(1);
  });

  it('gives an interval that excludes 0 when one row wins on every question, and is reproducible', () => {
    const a = row(Array.from({ length: 40 }, () => 1));
    const b = row(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 2 : null)));
    const c = comparePaired(a, b);
    expect(c.mrr10Interval[0]).toBeGreaterThan(0);
    expect(c.recall5Wins).toBe(20);
    expect(c.recall5P).toBeLessThan(1e-5);
    expect(comparePaired(a, b)).toEqual(c);
  });

  it('matches questions by id, not by position, and refuses different question sets', () => {
    const a = [{ id: 'x', firstHit: 1 }, { id: 'y', firstHit: null }];
    const b = [{ id: 'y', firstHit: null }, { id: 'x', firstHit: 1 }];
    expect(comparePaired(a, b).deltaMrr10).toBe(0);
    expect(() => comparePaired(a, [{ id: 'x', firstHit: 1 }, { id: 'z', firstHit: 1 }])).toThrow(/different questions/);
  });
});
