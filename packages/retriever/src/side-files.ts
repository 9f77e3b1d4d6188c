import type { QueryAnalysis } from './analyse-query.js';

/**
 * Files besides tests that exercise or record a project's code without implementing it: benchmarks,
 * which call the code in the same words as the code, and release notes, which restate each change to
 * it in the words a question uses. Both rank next to the implementation for the same reasons tests do.
 */
export type SideFileKind = 'benchmark' | 'release-notes';

// Folders of benchmarks by the conventions of benchmark runners (Cargo `benches`, asv and pytest-benchmark
// `benchmarks`, Node's `bench`/`benchmark`).
const BENCHMARK_DIRS = new Set(['bench', 'benches', 'benchmark', 'benchmarks']);

// Benchmark files by name: `x.bench.ts`, `x-bench.js`, `x_benchmark.py`, `bench_x.py`, `benchmark_x.py`.
const BENCHMARK_FILE = /(?:[._-]bench(?:mark)?s?\.[A-Za-z0-9]+$)|(?:^bench(?:mark)?_[^/]*\.py$)/;

// Release notes by name, any case, with no extension or a text one: `CHANGELOG.md`, `CHANGES.rst`,
// `HISTORY.md`, `NEWS`, `RELEASES.md`, `RELEASE_NOTES.md`, `changelog.txt` (never a code file such as
// `history.ts`); and towncrier's `changelog.d/` fragments.
const RELEASE_NOTES_FILE = /^(?:change[-_]?log|changes|history|news|releases?|release[-_]notes)(?:\.(?:md|markdown|mdx|rst|txt|adoc|asciidoc))?$/i;
const RELEASE_NOTES_DIRS = new Set(['changelog.d', 'newsfragments']);

/**
 * The {@link SideFileKind} of a repo-relative path (POSIX separators), or `undefined` for any other
 * file: a benchmark when a folder of the path is `bench`, `benches`, `benchmark` or `benchmarks`, or the
 * file is named like `x.bench.js`, `x_benchmark.py`, `bench_x.py`; release notes when the file is named
 * `CHANGELOG`, `CHANGES`, `HISTORY`, `NEWS`, `RELEASES` or `RELEASE_NOTES` (any case; no extension or a text one:
 * `.md`, `.rst`, `.txt`, `.adoc`...) or
 * lies in a `changelog.d/` or `newsfragments/` folder. A module *about* benchmarking or releases
 * (`lib/benchmark-utils.js`, `src/release.py`) is neither.
 */
export function sideFileKind(path: string): SideFileKind | undefined {
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  if (parts.some((dir) => BENCHMARK_DIRS.has(dir)) || BENCHMARK_FILE.test(file)) return 'benchmark';
  if (parts.some((dir) => RELEASE_NOTES_DIRS.has(dir)) || RELEASE_NOTES_FILE.test(file)) return 'release-notes';
  return undefined;
}

/**
 * The side-file kinds the side-file prior weighs for a query: each kind unless the query asks about it
 * (`analysis.asksForBenchmarks`, `asksForReleaseNotes`) or the search is scoped to it (`pathPrefix`, a
 * file or folder, is of that kind: `benchmarks/`, `CHANGELOG.md`).
 */
export function sideKindsToWeigh(analysis: Pick<QueryAnalysis, 'asksForBenchmarks' | 'asksForReleaseNotes'>, pathPrefix?: string): Set<SideFileKind> {
  const kinds = new Set<SideFileKind>();
  if (!analysis.asksForBenchmarks) kinds.add('benchmark');
  if (!analysis.asksForReleaseNotes) kinds.add('release-notes');
  const scoped = pathPrefix ? (sideFileKind(pathPrefix) ?? sideFileKind(`${pathPrefix.replace(/\/$/, '')}/x`)) : undefined;
  if (scoped) kinds.delete(scoped);
  return kinds;
}
