import type { Summary } from './metrics.js';

/** The committed baseline: overall scores of the product configuration. */
export interface Baseline {
  /** Largest accepted fall (absolute, e.g. 0.03 = 3 points) of recall5 and mrr10 before `--check` fails. */
  tolerance: number;
  recall5: number;
  mrr10: number;
  /** Informational: the rest of the summary when the baseline was written. */
  summary?: Summary;
}

/** The outcome of comparing a run with the baseline. */
export interface CheckResult {
  ok: boolean;
  /** One line per metric: value, baseline, difference, verdict. */
  lines: string[];
}

/**
 * Compares the overall Recall@5 and MRR@10 of a run with the baseline: a metric fails when it is
 * lower than the baseline by more than `baseline.tolerance`. Rises never fail (update the baseline
 * with `pnpm eval --write-baseline` to keep them).
 */
export function checkBaseline(run: Pick<Summary, 'recall5' | 'mrr10'>, baseline: Baseline): CheckResult {
  const lines: string[] = [];
  let ok = true;
  for (const key of ['recall5', 'mrr10'] as const) {
    const diff = run[key] - baseline[key];
    const fails = diff < -baseline.tolerance - 1e-9;
    if (fails) ok = false;
    lines.push(`${key}: ${run[key].toFixed(3)} vs baseline ${baseline[key].toFixed(3)} (${diff >= 0 ? '+' : ''}${diff.toFixed(3)}, tolerance ${baseline.tolerance}) ${fails ? 'FAIL' : 'ok'}`);
  }
  return { ok, lines };
}
