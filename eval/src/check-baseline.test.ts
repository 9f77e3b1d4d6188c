import { describe, expect, it } from 'vitest';
import { checkBaseline } from './check-baseline.js';

const baseline = { tolerance: 0.03, recall5: 0.9, mrr10: 0.8 };

describe('checkBaseline', () => {
  it('passes within the tolerance and on a rise', () => {
    expect(checkBaseline({ recall5: 0.871, mrr10: 0.95 }, baseline).ok).toBe(true);
  });

  it('fails when Recall@5 falls by more than the tolerance', () => {
    const r = checkBaseline({ recall5: 0.86, mrr10: 0.8 }, baseline);
    expect(r.ok).toBe(false);
    expect(r.lines[0]).toContain('FAIL');
    expect(r.lines[1]).toContain('ok');
  });

  it('fails when MRR@10 falls by more than the tolerance', () => {
    expect(checkBaseline({ recall5: 0.9, mrr10: 0.76 }, baseline).ok).toBe(false);
  });
});
