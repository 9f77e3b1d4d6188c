import { hitAt, reciprocalRank } from './metrics.js';

/** Per-question outcome the paired comparison reads: the 1-based rank of the first hit in the top 10, or null. */
export interface PairedScore {
  id: string;
  firstHit: number | null;
}

/** Row A against row B on the same questions (A minus B). */
export interface PairedComparison {
  n: number;
  /** Questions A has in its top 5 and B does not, and the reverse. */
  recall5Wins: number;
  recall5Losses: number;
  /** Mean difference of hit@5 (= difference of Recall@5). */
  deltaRecall5: number;
  /**
   * Exact two-sided sign test (binomial, p = 1/2) on the questions where exactly one row has a hit in
   * its top 5 (McNemar's exact test); 1 when there are none.
   */
  recall5P: number;
  /** Mean difference of reciprocal rank within the top 10 (= difference of MRR@10). */
  deltaMrr10: number;
  /** 95% percentile bootstrap interval of `deltaMrr10` (questions resampled with replacement, paired). */
  mrr10Interval: [number, number];
}

/** Bootstrap resamples of {@link comparePaired}; 10,000 is the usual choice for a 95% percentile interval (Efron and Tibshirani 1993). */
export const BOOTSTRAP_RESAMPLES = 10_000;


/** mulberry32: a small seeded PRNG, so the interval is the same on every run. Returns [0, 1). */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two-sided exact binomial test of `k` successes in `n` trials at p = 1/2. */
export function signTestP(k: number, n: number): number {
  if (n === 0) return 1;
  const tail = Math.min(k, n - k);
  let logChoose = 0; // log C(n, 0)
  let sum = 0;
  for (let i = 0; i <= tail; i++) {
    if (i > 0) logChoose += Math.log((n - i + 1) / i);
    sum += Math.exp(logChoose - n * Math.LN2);
  }
  return Math.min(1, 2 * sum);
}

/**
 * Compares two rows question by question (paired), so a difference of one or two questions on a set
 * of about a hundred is shown for what it is. Questions are matched by id; both lists must hold the
 * same ids.
 * @throws Error when the rows were scored on different questions
 */
export function comparePaired(a: readonly PairedScore[], b: readonly PairedScore[], resamples = BOOTSTRAP_RESAMPLES, seed = 1): PairedComparison {
  const byId = new Map(b.map((s) => [s.id, s.firstHit]));
  if (a.length !== b.length || a.some((s) => !byId.has(s.id))) throw new Error('comparePaired: the rows were scored on different questions');
  const n = a.length;
  const rrDiff = a.map((s) => reciprocalRank(s.firstHit) - reciprocalRank(byId.get(s.id)!));
  let wins = 0;
  let losses = 0;
  for (const s of a) {
    const d = hitAt(s.firstHit, 5) - hitAt(byId.get(s.id)!, 5);
    if (d > 0) wins++;
    else if (d < 0) losses++;
  }
  const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((x, y) => x + y, 0) / xs.length);
  const random = seededRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples && n > 0; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += rrDiff[Math.floor(random() * n)]!;
    means.push(sum / n);
  }
  means.sort((x, y) => x - y);
  const at = (q: number): number => (means.length === 0 ? 0 : means[Math.min(means.length - 1, Math.floor(q * means.length))]!);
  return {
    n,
    recall5Wins: wins,
    recall5Losses: losses,
    deltaRecall5: n === 0 ? 0 : (wins - losses) / n,
    recall5P: signTestP(wins, wins + losses),
    deltaMrr10: mean(rrDiff),
    mrr10Interval: [at(0.025), at(0.975)],
  };
}
