import { describe, expect, it } from 'vitest';
import { sideFileKind, sideKindsToWeigh } from './side-files.js';

describe('sideFileKind', () => {
  it('knows benchmark folders and file names', () => {
    const benchmarks = [
      'benchmarks/child-creation.bench.js', 'bench/http.js', 'benches/parse.rs', 'packages/a/benchmark/run.ts',
      'lib/x.bench.ts', 'src/parse-bench.js', 'src/parse_benchmark.py', 'bench_dump.py', 'tools/benchmark_json.py',
    ];
    expect(benchmarks.map(sideFileKind)).toEqual(benchmarks.map(() => 'benchmark'));
  });

  it('knows release notes by name, in any case and with any extension, and towncrier fragments', () => {
    const notes = ['CHANGELOG.md', 'CHANGES.rst', 'HISTORY.md', 'NEWS', 'docs/changelog.rst', 'RELEASE_NOTES.md', 'Releases.md', 'change-log.txt', 'changelog.d/123.fix.md', 'newsfragments/42.feature'];
    expect(notes.map(sideFileKind)).toEqual(notes.map(() => 'release-notes'));
  });

  it('leaves code about benchmarks or releases, and names that merely contain the words, alone', () => {
    const code = ['lib/benchmark-utils.js', 'src/release.py', 'src/history.ts', 'lib/news-feed.js', 'src/changes/diff.ts', 'src/bench.py', 'docs/benchmarking.md', 'src/workbench.ts', 'README.md', 'test/x.test.js'];
    expect(code.map(sideFileKind)).toEqual(code.map(() => undefined));
  });

  it('weighs each kind unless the query asks about it or the search is scoped to it', () => {
    const none = { asksForBenchmarks: false, asksForReleaseNotes: false };
    expect([...sideKindsToWeigh(none)]).toEqual(['benchmark', 'release-notes']);
    expect([...sideKindsToWeigh({ ...none, asksForBenchmarks: true })]).toEqual(['release-notes']);
    expect([...sideKindsToWeigh({ ...none, asksForReleaseNotes: true })]).toEqual(['benchmark']);
    expect([...sideKindsToWeigh(none, 'benchmarks/')]).toEqual(['release-notes']);
    expect([...sideKindsToWeigh(none, 'bench')]).toEqual(['release-notes']);
    expect([...sideKindsToWeigh(none, 'CHANGELOG.md')]).toEqual(['benchmark']);
    expect([...sideKindsToWeigh(none, 'src/')]).toEqual(['benchmark', 'release-notes']);
  });
});
