import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The eval directory (absolute). */
export const EVAL_DIR = fileURLToPath(new URL('..', import.meta.url));

/** One pinned corpus of eval/corpora.json. */
export interface Corpus {
  /** The corpus's name: golden questions' `corpus`, directory and index names. */
  name: string;
  /** The registry's package name when it differs from `name` (a scoped npm package: `@trpc/server`; a Go module path: `github.com/spf13/cobra`). */
  package?: string;
  /** The pinned version, without a `v` (Go modules too: `1.10.2` is fetched as `v1.10.2`). */
  version: string;
  /** sha256 of the downloaded archive (npm: the `npm pack` .tgz; pypi: the sdist .tar.gz; go: the module .zip). */
  sha256: string;
  /**
   * Where eval/fetch-corpora.mjs downloads it from: `npm` (default, `npm pack`), `pypi` (the source
   * distribution, via the pip of packages/embedding-server/.venv) or `go` (the module zip, via `go mod
   * download`). Either way the top folder is stripped.
   */
  registry: 'npm' | 'pypi' | 'go';
  /** Extra gitignore-syntax rules pinning the indexed subset (not applied to the `package` variant). */
  ignore: string[];
  /** Absolute path of the unpacked corpus (eval/.corpora/<name>-<version>). */
  root: string;
}

/** Reads eval/corpora.json. */
export function readCorpora(): Corpus[] {
  const { corpora } = JSON.parse(readFileSync(path.join(EVAL_DIR, 'corpora.json'), 'utf8')) as {
    corpora: (Omit<Corpus, 'root' | 'registry' | 'ignore'> & Partial<Pick<Corpus, 'registry' | 'ignore'>>)[];
  };
  return corpora.map((c) => ({ ...c, registry: c.registry ?? 'npm', ignore: c.ignore ?? [], root: path.join(EVAL_DIR, '.corpora', `${c.name}-${c.version}`) }));
}

/**
 * Runs eval/fetch-corpora.mjs: downloads each corpus of eval/corpora.json not yet under eval/.corpora/
 * and checks its sha256 (progress on stderr). Synchronous.
 * @throws Error when the script fails (a download or a checksum), after it has said why on stderr
 */
export function fetchCorpora(): void {
  execFileSync(process.execPath, [path.join(EVAL_DIR, 'fetch-corpora.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
}
