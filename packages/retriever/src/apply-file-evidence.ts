import type { ScoredChunk } from '@monorag/shared';
import { rescore } from './rescore.js';

/** Weight of the file's evidence in {@link applyFileEvidence}. */
export const FILE_EVIDENCE_WEIGHT = 0.5;

/**
 * Passage scores combined with evidence from the rest of their document (Callan, "Passage-level
 * evidence in document retrieval", SIGIR 1994): each chunk gains `weight` times the best score of
 * another chunk of the same file among `hits`, measured above the weakest score of `hits` (scores
 * are min-shifted first, the usual normalisation before combining evidence; Lee, SIGIR 1997). A
 * function in a file that several strong chunks point at overtakes an equally scored chunk that
 * stands alone, while chunks that are merely in the pool (every chunk is, in a small project) lend
 * nothing. The best chunk of a file still leads its file; taking the best other chunk rather than
 * the sum keeps large files from winning on size alone. Re-sorts, ties in the incoming order.
 */
export function applyFileEvidence(hits: readonly ScoredChunk[], weight = FILE_EVIDENCE_WEIGHT): ScoredChunk[] {
  const floor = hits.reduce((min, h) => Math.min(min, h.score), Infinity);
  const top2 = new Map<string, [number, number]>();
  for (const { chunk, score: raw } of hits) {
    const score = raw - floor;
    const best = top2.get(chunk.path) ?? [0, 0];
    if (score > best[0]) top2.set(chunk.path, [score, best[0]]);
    else if (score > best[1]) top2.set(chunk.path, [best[0], score]);
    else top2.set(chunk.path, best);
  }
  return rescore(hits, ({ chunk, score }) => {
    const [first, second] = top2.get(chunk.path)!;
    const other = score - floor >= first ? second : first;
    return score + weight * other;
  });
}
