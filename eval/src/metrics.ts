import { PROSE_LANGUAGES } from '@monorag/retriever';
import type { AcceptedRange, GoldenQuestion } from './golden.js';

/** A ranked result as the eval sees it. Lines 1-based, inclusive. */
export interface RankedResult {
  path: string;
  startLine: number;
  endLine: number;
  language: string;
  /** The same text at other places, returned with this result at its rank (the retriever's `alsoAt`). */
  alsoAt?: ReadonlyArray<{ path: string; startLine: number; endLine: number }>;
}

/** Scores of one question. */
export interface QuestionScore {
  id: string;
  /** 1-based rank of the first hit within the top 10, or null. */
  firstHit: number | null;
  /** nDCG@10 with binary gains: a result counts once per accepted range it is the first to hit. */
  ndcg10: number;
  /** Code questions only: a documentation result ranks above the first hit (or there is none in the top 10). */
  docOutranksCode: boolean | null;
  latencyMs: number;
}

/** True when `r`, or one of the places holding the same text (`alsoAt`), has the same path as `a` and their line ranges overlap. */
export function isHit(r: RankedResult, a: AcceptedRange): boolean {
  const overlaps = (p: { path: string; startLine: number; endLine: number }): boolean => p.path === a.path && p.startLine <= a.endLine && a.startLine <= p.endLine;
  return overlaps(r) || (r.alsoAt?.some(overlaps) ?? false);
}

/**
 * Whether a result is documentation (prose) rather than code: its language is one the retriever's
 * intent prior treats as prose ({@link PROSE_LANGUAGES}: Markdown, MDX, reStructuredText, AsciiDoc,
 * plain text), so the eval and the product agree on what a doc is.
 */
export function isDoc(r: RankedResult): boolean {
  return PROSE_LANGUAGES.has(r.language);
}

/**
 * Scores one ranked list against a question. nDCG@10 (Järvelin and Kekäläinen, 2002) uses gain 1 for
 * a result that is the first to hit one of the accepted ranges and 0 otherwise, discount
 * 1 / log2(rank + 1), and the ideal list of min(#accepted, 10) hits.
 */
export function scoreQuestion(q: GoldenQuestion, results: readonly RankedResult[], latencyMs: number): QuestionScore {
  const top = results.slice(0, 10);
  let firstHit: number | null = null;
  let firstDoc: number | null = null;
  const covered = new Set<number>();
  let dcg = 0;
  top.forEach((r, i) => {
    const rank = i + 1;
    if (firstDoc === null && isDoc(r)) firstDoc = rank;
    let gained = false;
    q.accepted.forEach((a, j) => {
      if (isHit(r, a)) {
        if (firstHit === null) firstHit = rank;
        if (!covered.has(j) && !gained) {
          covered.add(j);
          gained = true;
        }
      }
    });
    if (gained) dcg += 1 / Math.log2(rank + 1);
  });
  let idcg = 0;
  for (let i = 1; i <= Math.min(q.accepted.length, 10); i++) idcg += 1 / Math.log2(i + 1);
  const docOutranksCode = q.answer === 'code' ? firstDoc !== null && (firstHit === null || firstDoc < firstHit) : null;
  return { id: q.id, firstHit, ndcg10: idcg > 0 ? dcg / idcg : 0, docOutranksCode, latencyMs };
}

/** Aggregate scores of a set of questions. */
export interface Summary {
  n: number;
  /** Share of questions with a hit within the top k (success@k, the usual "recall@k" of QA retrieval). */
  recall1: number;
  recall5: number;
  recall10: number;
  /** Mean reciprocal rank of the first hit, 0 past rank 10. */
  mrr10: number;
  ndcg10: number;
  /** Share of code questions where a documentation result outranks the right code; null without code questions. */
  docOutranksCode: number | null;
  /** Query latency percentiles in ms (nearest-rank). */
  p50Ms: number;
  p95Ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** 1 when a question's first hit is within the top `k`, else 0 (the per-question term of Recall@k, i.e. success@k). */
export function hitAt(firstHit: number | null, k: number): number {
  return firstHit !== null && firstHit <= k ? 1 : 0;
}

/** 1 / rank of a question's first hit in the top 10, 0 without one (the per-question term of MRR@10). */
export function reciprocalRank(firstHit: number | null): number {
  return firstHit !== null && firstHit <= 10 ? 1 / firstHit : 0;
}

/** Summarises question scores. */
export function summarise(scores: readonly QuestionScore[]): Summary {
  const n = scores.length;
  const at = (k: number): number => (n === 0 ? 0 : scores.reduce((sum, s) => sum + hitAt(s.firstHit, k), 0) / n);
  const code = scores.filter((s) => s.docOutranksCode !== null);
  const lat = scores.map((s) => s.latencyMs).sort((a, b) => a - b);
  return {
    n,
    recall1: round(at(1)),
    recall5: round(at(5)),
    recall10: round(at(10)),
    mrr10: round(n === 0 ? 0 : scores.reduce((sum, s) => sum + reciprocalRank(s.firstHit), 0) / n),
    ndcg10: round(n === 0 ? 0 : scores.reduce((sum, s) => sum + s.ndcg10, 0) / n),
    docOutranksCode: code.length === 0 ? null : round(code.filter((s) => s.docOutranksCode).length / code.length),
    p50Ms: round(percentile(lat, 50)),
    p95Ms: round(percentile(lat, 95)),
  };
}
