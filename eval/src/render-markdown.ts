import type { Summary } from './metrics.js';

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

function line(name: string, s: Summary): string {
  return `| ${name} | ${s.n} | ${f(s.recall1)} | ${f(s.recall5)} | ${f(s.recall10)} | ${f(s.mrr10)} | ${f(s.ndcg10)} | ${f(s.docOutranksCode)} | ${ms(s.p50Ms)} | ${ms(s.p95Ms)} |`;
}

const HEAD = '| | n | R@1 | R@5 | R@10 | MRR@10 | nDCG@10 | doc>code | p50 ms | p95 ms |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |';

/** The ablation table (one line per row) and the split of the main row, as Markdown. */
export function renderMarkdown(rows: readonly RowResult[], mainId: string, meta: { wallMs: number; indexMs: number; questions: number }): string {
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
  return out.join('\n');
}
