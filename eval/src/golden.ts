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

/**
 * Reads every eval/golden/*.json set.
 * @throws Error naming both files when two questions share an id: per-question results, the paired
 *   comparison and `eval:explain` all key on the id.
 */
export function readGolden(dir = path.join(EVAL_DIR, 'golden')): GoldenQuestion[] {
  const out: GoldenQuestion[] = [];
  const fileOf = new Map<string, string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const set = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as { corpus: string; questions: Omit<GoldenQuestion, 'corpus'>[] };
    for (const q of set.questions) {
      const first = fileOf.get(q.id);
      if (first !== undefined) throw new Error(`eval/golden: question id "${q.id}" is used in ${first} and ${name}; give each question its own id (e.g. a corpus prefix).`);
      fileOf.set(q.id, name);
      out.push({ ...q, corpus: set.corpus, docParaphrase: q.docParaphrase ?? false });
    }
  }
  return out;
}
