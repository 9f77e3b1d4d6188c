import type { Chunk, ScoredChunk } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { applyFileEvidence } from './apply-file-evidence.js';
import { applyIntent } from './apply-intent.js';
import { applyTestPrior } from './apply-test-prior.js';
import { isReferenceChunk } from './ranking-options.js';
import { resolveFileScope } from './resolve-file-scope.js';
import { normaliseSymbol, symbolMatches } from './symbol-matches.js';

function hit(path: string, startLine: number, score: number, extra: Partial<Chunk> = {}): ScoredChunk {
  const chunk = { path, startLine, endLine: startLine + 5, language: 'javascript', symbol: null, scopes: [], ...extra } as Chunk;
  return { chunk, score };
}

describe('symbolMatches', () => {
  it('normalises sigils, member paths and case', () => {
    expect(normaliseSymbol('#onAbort')).toBe('onabort');
    expect(normaliseSymbol('pino.destination')).toBe('destination');
    expect(normaliseSymbol('[kRetryHandlerDefaultRetry]')).toBe('kretryhandlerdefaultretry');
  });

  it('keeps definitions named like a query identifier, in candidate order, once per range', () => {
    const call = hit('a.js', 1, 9, { symbol: 'caller' });
    const def = hit('b.js', 10, 5, { symbol: 'parseHeaders' });
    const method = hit('c.js', 20, 4, { symbol: null, scopes: ['Parser', 'parseHeaders'] });
    const out = symbolMatches(['parseHeaders'], [[call, def], [def, method]]);
    expect(out.map((h) => h.chunk.path)).toEqual(['b.js', 'c.js']);
  });

  it('puts the chunk where a definition starts first, even when it is named after a neighbour, then other pieces', () => {
    const call = hit('b.py', 1, 9, { symbol: 'main' });
    // func_a and func_b share one chunk (lines 1-6), named after func_a; func_c's tail is its own chunk.
    const group = hit('a.py', 1, 5, { symbol: 'func_a' });
    const tail = hit('a.py', 20, 7, { symbol: 'func_b', endLine: 21 });
    const out = symbolMatches(['func_b'], [[call, tail, group]], [{ path: 'a.py', startLine: 4 }]);
    expect(out.map((h) => `${h.chunk.path}:${h.chunk.startLine}`)).toEqual(['a.py:1', 'a.py:20']);
    // Without the symbol table, only the name match is found.
    expect(symbolMatches(['func_b'], [[call, tail, group]]).map((h) => `${h.chunk.path}:${h.chunk.startLine}`)).toEqual(['a.py:20']);
  });

  it('puts tests named like the identifier after every piece of its definitions', () => {
    // `describe('parseHeaders', ...)` in a test file: a definition of kind test named parseHeaders, ranked first by BM25.
    const suite = hit('test/headers.test.js', 1, 9, { symbol: 'parseHeaders', kind: 'test' });
    const nested = hit('test/headers.test.js', 8, 8, { symbol: 'folds lines', kind: 'test', scopes: ['parseHeaders'] });
    const head = hit('lib/headers.js', 10, 5, { symbol: 'parseHeaders', kind: 'function' });
    const tail = hit('lib/headers.js', 30, 4, { symbol: 'parseHeaders', kind: 'function' });
    const definitions = [
      { path: 'test/headers.test.js', startLine: 1 },
      { path: 'lib/headers.js', startLine: 10 },
    ];
    const out = symbolMatches(['parseHeaders'], [[suite, nested, head, tail]], definitions);
    expect(out.map((h) => `${h.chunk.path}:${h.chunk.startLine}`)).toEqual(['lib/headers.js:10', 'lib/headers.js:30', 'test/headers.test.js:1', 'test/headers.test.js:8']);
  });

  it('is empty without identifiers', () => {
    expect(symbolMatches([], [[hit('a.js', 1, 1, { symbol: 'x' })]])).toEqual([]);
  });
});

describe('applyIntent', () => {
  const doc = hit('docs/api.md', 1, 0.03, { language: 'markdown' });
  const code = hit('lib/a.js', 1, 0.025);

  it('lets code overtake a slightly better doc for code-seeking queries', () => {
    expect(applyIntent([doc, code], 'code').map((h) => h.chunk.path)).toEqual(['lib/a.js', 'docs/api.md']);
    expect(applyIntent([doc, code], 'code')[1]!.score).toBeCloseTo(0.018, 12);
  });

  it('keeps docs first for documentation-seeking queries', () => {
    expect(applyIntent([doc, code], 'docs').map((h) => h.chunk.path)).toEqual(['docs/api.md', 'lib/a.js']);
  });

  it('leans to code for plain prose, not for a query that names an identifier', () => {
    // 0.03 * 0.85 = 0.0255 > 0.025: a small lean; a wider gap keeps the doc first.
    expect(applyIntent([doc, hit('lib/a.js', 1, 0.026)], 'neutral').map((h) => h.chunk.path)).toEqual(['lib/a.js', 'docs/api.md']);
    expect(applyIntent([doc, code], 'neutral')[0]!.score).toBeCloseTo(0.0255, 12);
    expect(applyIntent([doc, code], 'named').map((h) => [h.chunk.path, h.score])).toEqual([['docs/api.md', 0.03], ['lib/a.js', 0.025]]);
  });
});

describe('resolveFileScope', () => {
  const paths = ['lib/core/util.js', 'lib/web/fetch/util.js', 'lib/handler/retry-handler.js', 'docs/api/Client.md'];

  it('scopes to the one file a reference names', () => {
    expect(resolveFileScope(['retry-handler.js'], paths)).toBe('lib/handler/retry-handler.js');
    expect(resolveFileScope(['./lib/core/util.js'], paths)).toBe('lib/core/util.js');
    expect(resolveFileScope(['core/util.js'], paths)).toBe('lib/core/util.js');
  });

  it('falls back (undefined) when a reference is ambiguous or unknown', () => {
    expect(resolveFileScope(['util.js'], paths)).toBeUndefined();
    expect(resolveFileScope(['nope.js'], paths)).toBeUndefined();
    expect(resolveFileScope(['retry-handler.js', 'Client.md'], paths)).toBeUndefined();
    expect(resolveFileScope([], paths)).toBeUndefined();
  });
});

describe('applyFileEvidence', () => {
  it('adds half the best other chunk of the same file above the weakest hit, so a supported chunk overtakes a lone one', () => {
    const lone = hit('lone.js', 1, 0.03);
    const a = hit('dns.js', 10, 0.028);
    const b = hit('dns.js', 50, 0.024);
    const floor = hit('other.js', 1, 0.01);
    const out = applyFileEvidence([lone, a, b, floor]);
    expect(out.map((h) => `${h.chunk.path}:${h.chunk.startLine}`)).toEqual(['dns.js:10', 'dns.js:50', 'lone.js:1', 'other.js:1']);
    expect(out[0]!.score).toBeCloseTo(0.028 + 0.5 * (0.024 - 0.01), 12);
    expect(out[1]!.score).toBeCloseTo(0.024 + 0.5 * (0.028 - 0.01), 12);
    expect(out[2]!.score).toBeCloseTo(0.03, 12);
  });

  it('lends nothing from chunks that are only as strong as the weakest hit (a small project: all in the pool)', () => {
    const lone = hit('backoff.ts', 1, 0.0164);
    const out = applyFileEvidence([lone, hit('README.md', 1, 0.0161), hit('README.md', 5, 0.0152), hit('ini.py', 1, 0.0152)]);
    expect(out[0]!.chunk.path).toBe('backoff.ts');
  });
});

describe('isReferenceChunk', () => {
  it('weighs docs and type declaration files as reference, implementation as code', () => {
    const cases = [
      ['docs/api.md', 'markdown'], ['docs/options.rst', 'rst'], ['index.d.ts', 'typescript'], ['types/hooks.d.mts', 'typescript'],
      ['index.d.cts', 'typescript'], ['stubs/core.pyi', 'python'], ['lib/a.js', 'javascript'], ['src/d.ts', 'typescript'], ['src/core.py', 'python'],
    ] as const;
    expect(cases.map(([p, language]) => isReferenceChunk({ path: p, language }))).toEqual([true, true, true, true, true, true, false, false, false]);
  });

  it("weighs a notebook's Markdown cells as reference and its code cells as code", () => {
    expect(isReferenceChunk({ path: 'nb/sales.ipynb', language: 'jupyter', kind: 'section' })).toBe(true);
    expect(isReferenceChunk({ path: 'nb/sales.ipynb', language: 'jupyter', kind: 'function' })).toBe(false);
    expect(isReferenceChunk({ path: 'nb/sales.ipynb', language: 'jupyter', kind: 'module' })).toBe(false);
  });

  it('lets the implementation overtake a slightly better declaration of it under a code-seeking query', () => {
    const declaration = hit('types/retry.d.ts', 1, 0.03, { language: 'typescript' });
    expect(applyIntent([declaration, hit('lib/retry.js', 1, 0.025)], 'code').map((h) => h.chunk.path)).toEqual(['lib/retry.js', 'types/retry.d.ts']);
  });
});

describe('applyTestPrior', () => {
  it('lets the implementation overtake a slightly better test of it, and never drops the test', () => {
    const test = hit('test/retry.test.js', 1, 0.03);
    const code = hit('lib/retry.js', 1, 0.025);
    const doc = hit('docs/retry.md', 1, 0.02, { language: 'markdown' });
    const out = applyTestPrior([test, code, doc]);
    // 0.03 x 0.6 = 0.018: below the code (0.025) and below the doc (0.02) too.
    expect(out.map((h) => h.chunk.path)).toEqual(['lib/retry.js', 'docs/retry.md', 'test/retry.test.js']);
    expect(out[2]!.score).toBeCloseTo(0.018, 12);
  });

  it('keeps a test first when its lead is wider than the factor', () => {
    expect(applyTestPrior([hit('tests/test_core.py', 1, 0.05), hit('src/core.py', 1, 0.025)]).map((h) => h.chunk.path)).toEqual(['tests/test_core.py', 'src/core.py']);
  });
});

