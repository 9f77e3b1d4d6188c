import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EVAL_DIR } from './corpora.js';

/** An accepted answer range: same path and overlapping lines is a hit. Lines 1-based, inclusive. */
export interface AcceptedRange {
  path: string;
  startLine: number;
  endLine: number;
}

/** One golden question. */
export interface GoldenQuestion {
  id: string;
  corpus: string;
  /** `lexical`: names an identifier of the target; `semantic`: describes behaviour only. */
  type: 'lexical' | 'semantic';
  /** Which kind of file answers best. */
  answer: 'code' | 'docs';
  /** A doc section restates the question, but the code is the answer. */
  docParaphrase: boolean;
  query: string;
  accepted: AcceptedRange[];
}

/** Reads every eval/golden/*.json set. */
export function readGolden(dir = path.join(EVAL_DIR, 'golden')): GoldenQuestion[] {
  const out: GoldenQuestion[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const set = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as { corpus: string; questions: Omit<GoldenQuestion, 'corpus'>[] };
    for (const q of set.questions) out.push({ ...q, corpus: set.corpus, docParaphrase: q.docParaphrase ?? false });
  }
  return out;
}
