import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The eval directory (absolute). */
export const EVAL_DIR = fileURLToPath(new URL('..', import.meta.url));

/** One pinned corpus of eval/corpora.json. */
export interface Corpus {
  name: string;
  version: string;
  sha256: string;
  /** Extra gitignore-syntax rules pinning the indexed subset. */
  ignore: string[];
  /** Absolute path of the unpacked corpus (eval/.corpora/<name>-<version>). */
  root: string;
}

/** Reads eval/corpora.json. */
export function readCorpora(): Corpus[] {
  const { corpora } = JSON.parse(readFileSync(path.join(EVAL_DIR, 'corpora.json'), 'utf8')) as { corpora: Omit<Corpus, 'root'>[] };
  return corpora.map((c) => ({ ...c, ignore: c.ignore ?? [], root: path.join(EVAL_DIR, '.corpora', `${c.name}-${c.version}`) }));
}
