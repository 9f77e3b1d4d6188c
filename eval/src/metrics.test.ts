import { describe, expect, it } from 'vitest';
import type { GoldenQuestion } from './golden.js';
import { isDoc, isHit, scoreQuestion, summarise } from './metrics.js';

const q: GoldenQuestion = {
  id: 'q', corpus: 'c', type: 'semantic', answer: 'code', docParaphrase: true, query: 'x',
  accepted: [{ path: 'a.js', startLine: 10, endLine: 20 }, { path: 'b.js', startLine: 1, endLine: 5 }],
};
const r = (path: string, startLine: number, endLine: number, language = 'javascript') => ({ path, startLine, endLine, language });

describe('eval metrics', () => {
  it('a hit is the same path with overlapping lines (inclusive)', () => {
    expect(isHit(r('a.js', 20, 30), q.accepted[0]!)).toBe(true);
    expect(isHit(r('a.js', 21, 30), q.accepted[0]!)).toBe(false);
    // The same text at another place, returned with the result, counts as that result.
    expect(isHit({ ...r('README.md', 1, 5), alsoAt: [{ path: 'a.js', startLine: 18, endLine: 20 }] }, q.accepted[0]!)).toBe(true);
    expect(isHit({ ...r('README.md', 1, 5), alsoAt: [{ path: 'a.js', startLine: 21, endLine: 25 }] }, q.accepted[0]!)).toBe(false);
    expect(isHit(r('b.js', 10, 20), q.accepted[0]!)).toBe(false);
  });

  it('scores rank, nDCG and doc-outranks-code', () => {
    const s = scoreQuestion(q, [r('docs/x.md', 1, 9, 'markdown'), r('a.js', 12, 14), r('a.js', 15, 19), r('b.js', 2, 3)], 5);
    expect(s.firstHit).toBe(2);
    expect(s.docOutranksCode).toBe(true);
    // gains at ranks 2 and 4 (rank 3 hits an already covered range); ideal: ranks 1 and 2.
    expect(s.ndcg10).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3)), 12);
  });

  it('counts reStructuredText and AsciiDoc pages as docs, as the retriever does (a Python project documents in .rst)', () => {
    expect([isDoc(r('docs/a.rst', 1, 2, 'rst')), isDoc(r('docs/a.adoc', 1, 2, 'asciidoc')), isDoc(r('README.md', 1, 2, 'markdown')), isDoc(r('src/a.py', 1, 2, 'python'))])
      .toEqual([true, true, true, false]);
    const s = scoreQuestion(q, [r('docs/x.rst', 1, 9, 'rst'), r('a.js', 12, 14)], 5);
    expect(s.docOutranksCode).toBe(true);
  });

  it('summarises recall@k, MRR and latency percentiles', () => {
    const scores = [
      { id: '1', firstHit: 1, ndcg10: 1, docOutranksCode: false, latencyMs: 10 },
      { id: '2', firstHit: 4, ndcg10: 0.5, docOutranksCode: true, latencyMs: 20 },
      { id: '3', firstHit: null, ndcg10: 0, docOutranksCode: null, latencyMs: 30 },
      { id: '4', firstHit: 7, ndcg10: 0.3, docOutranksCode: false, latencyMs: 40 },
    ];
    const s = summarise(scores);
    expect(s).toMatchObject({ n: 4, recall1: 0.25, recall5: 0.5, recall10: 0.75, docOutranksCode: 0.333, p50Ms: 20, p95Ms: 40 });
    expect(s.mrr10).toBeCloseTo((1 + 0.25 + 1 / 7) / 4, 3);
  });
});
