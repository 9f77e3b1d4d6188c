import type { Summary } from './metrics.js';
import type { PairedComparison } from './paired-comparison.js';

/** The scores of one ablation row. */
export interface RowResult {
  id: string;
  label: string;
  overall: Summary;
  /** Summaries of subsets: lexical, semantic, code, docs, docParaphrase, and one per corpus. */
  split: Record<string, Summary>;
  questions: unknown[];
}

const f = (x: number | null): string => (x === null ? '-' : x.toFixed(3));
const ms = (x: number): string => x.toFixed(1);
const signed = (x: number): string => (x >= 0 ? '+' : '') + x.toFixed(3);

function line(name: string, s: Summary): string {
  return `| ${name} | ${s.n} | ${f(s.recall1)} | ${f(s.recall5)} | ${f(s.recall10)} | ${f(s.mrr10)} | ${f(s.ndcg10)} | ${f(s.docOutranksCode)} | ${ms(s.p50Ms)} | ${ms(s.p95Ms)} |`;
}

const HEAD = '| | n | R@1 | R@5 | R@10 | MRR@10 | nDCG@10 | doc>code | p50 ms | p95 ms |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |';

/**
 * The ablation table (one line per row), the split of the main row, and the main row against each
 * other row question by question (`paired`, when given), as Markdown.
 */
export function renderMarkdown(
  rows: readonly RowResult[],
  mainId: string,
  meta: { wallMs: number; indexMs: number; questions: number },
  paired: readonly { id: string; comparison: PairedComparison }[] = [],
): string {
  const main = rows.find((r) => r.id === mainId)!;
  const out = [
    `## Ablations (${meta.questions} questions; eval wall time ${(meta.wallMs / 1000).toFixed(1)} s, of which indexing ${(meta.indexMs / 1000).toFixed(1)} s)`,
    '',
    HEAD,
    ...rows.map((r) => line(`${r.id === mainId ? '**' + r.id + '**' : r.id}: ${r.label}`, r.overall)),
    '',
    `## ${main.id}: by question kind and corpus`,
    '',
    HEAD,
    ...Object.entries(main.split).map(([k, s]) => line(k, s)),
    '',
    'doc>code: share of code questions where a documentation chunk ranks above the first right code chunk (lower is better). Latency: retrieval plus the query embedding (model call) for rows that use dense retrieval.',
    '',
  ];
  if (paired.length > 0) {
    out.push(
      `## ${main.id} against each other row, question by question`,
      '',
      '| against | R@5 won | R@5 lost | ΔR@5 | sign test p | ΔMRR@10 | 95% interval |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...paired.map(({ id, comparison: c }) =>
        `| ${id} | ${c.recall5Wins} | ${c.recall5Losses} | ${signed(c.deltaRecall5)} | ${c.recall5P.toFixed(3)} | ${signed(c.deltaMrr10)} | ${signed(c.mrr10Interval[0])} .. ${signed(c.mrr10Interval[1])} |`,
      ),
      '',
      `R@5 won/lost: questions only ${main.id} / only the other row has in its top 5; sign test: exact two-sided binomial test on those (McNemar). 95% interval: paired percentile bootstrap of the MRR@10 difference over questions (10,000 resamples, fixed seed). An interval that holds 0, or p above 0.05, means these questions cannot tell the two apart.`,
      '',
    );
  }
  return out.join('\n');
}
