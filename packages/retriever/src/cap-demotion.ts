import type { ScoredChunk } from '@monorag/shared';
import { rangeKey } from './range-key.js';

/**
 * Reorders `after` (a ranking the priors produced from `before`) so that no chunk stands more than
 * `places` positions below where it stood in `before`; every other chunk keeps its relative order in
 * `after`. A chunk lifted back takes the score of the chunk it now precedes, so scores stay
 * non-increasing. Earliest-deadline-first: each chunk's deadline is its 0-based position in `before`
 * plus `places`; deadlines are distinct, so every deadline is met.
 * @param places whole number of positions, at least 0; `Infinity` returns `after` unchanged
 */
export function capDemotion(before: readonly ScoredChunk[], after: readonly ScoredChunk[], places: number): ScoredChunk[] {
  if (!Number.isFinite(places)) return [...after];
  const deadline = new Map<string, number>();
  before.forEach((hit, i) => {
    const key = rangeKey(hit);
    if (!deadline.has(key)) deadline.set(key, i + places);
  });
  const byDeadline = new Map<number, number>();
  after.forEach((hit, i) => {
    const due = deadline.get(rangeKey(hit));
    if (due !== undefined && !byDeadline.has(due)) byDeadline.set(due, i);
  });
  const placed = new Set<number>();
  const out: ScoredChunk[] = [];
  let next = 0;
  for (let position = 0; position < after.length; position++) {
    let pick = byDeadline.get(position);
    if (pick === undefined || placed.has(pick)) {
      while (placed.has(next)) next++;
      pick = next;
    }
    placed.add(pick);
    out.push(after[pick]!);
  }
  for (let i = out.length - 2; i >= 0; i--) {
    if (out[i]!.score < out[i + 1]!.score) out[i] = { chunk: out[i]!.chunk, score: out[i + 1]!.score };
  }
  return out;
}
