import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '@monorag/retriever';
import { formatResults, snippetShown } from './format-results.js';

const index = { indexedAt: null, indexedCommit: null, files: 1, chunks: 1, headCommit: null, pendingChanges: 0, unqueuedChanges: 0, queue: null, indexing: false, stale: false, warning: null };

describe('formatResults', () => {
  it('keeps each result header on one line, even for a file name with a newline', () => {
    const response: SearchResponse = {
      results: [{ path: 'odd\nname.ts', startLine: 1, endLine: 2, symbol: 'f', scopes: [], kind: 'function', language: 'typescript', score: 0.0000012345, snippet: 'function f() {}' }],
      mode: 'lexical',
      index,
      warnings: [],
    };
    const lines = formatResults(response).split('\n');
    expect(lines[0]).toBe('"odd\\nname.ts":1-2  f  0.000001234');
    expect(lines[1]).toBe('    function f() {}');
  });

  it('says where else the same text is, after the snippet', () => {
    const hit = { path: 'README.md', startLine: 1, endLine: 4, symbol: null, scopes: [], kind: 'section' as const, language: 'markdown', score: 0.5, snippet: '# Retry' };
    const alsoAt = [{ path: 'docs/index.md', startLine: 3, endLine: 6 }, { path: 'odd\nname.md', startLine: 1, endLine: 4 }];
    const response: SearchResponse = { results: [{ ...hit, alsoAt }], mode: 'hybrid', index, warnings: [] };
    expect(formatResults(response).split('\n').slice(0, 3)).toEqual(['README.md:1-4  -  0.5000', '    # Retry', '  (same text also at docs/index.md:3-6, "odd\\nname.md":1-4)']);
  });

  it('adds a ranks line per result with --explain, "-" where a stage lacks the result', () => {
    const hit = { path: 'src/a.ts', startLine: 3, endLine: 9, symbol: 'f', scopes: [], kind: 'function' as const, language: 'typescript', score: 0.03, snippet: 'function f() {}' };
    const response: SearchResponse = { results: [hit], mode: 'hybrid', index, warnings: [] };
    const lines = formatResults(response, 6, [{ dense: 4, bm25: null, rrf: 2, intent: 1 }]).split('\n');
    expect(lines.slice(0, 3)).toEqual(['src/a.ts:3-9  f  0.03000', '  ranks: dense 4, bm25 -, rrf 2, intent 1', '    function f() {}']);
  });

  it('names a result by its scopes and symbol: a method by its class, a nested test by the tests around it', () => {
    const hit = { path: 'lib/client.js', startLine: 106, endLine: 146, kind: 'method' as const, language: 'javascript', score: 0.03, snippet: 'constructor () {}' };
    const response: SearchResponse = {
      results: [
        { ...hit, symbol: 'constructor', scopes: ['Client'] },
        { ...hit, symbol: 'unsupported method', scopes: ['customized 404'], kind: 'test' },
        { ...hit, symbol: null, scopes: ['Client'] },
        { ...hit, symbol: null, scopes: [] },
      ],
      mode: 'hybrid',
      index,
      warnings: [],
    };
    expect(formatResults(response).split('\n').filter((line) => line.startsWith('lib/'))).toEqual([
      'lib/client.js:106-146  Client > constructor  0.03000',
      'lib/client.js:106-146  customized 404 > unsupported method  0.03000',
      'lib/client.js:106-146  Client  0.03000',
      'lib/client.js:106-146  -  0.03000',
    ]);
  });

  it('prints the first snippet lines, and keeps a line matching the query that the snippet shows after a gap', () => {
    const many = Array.from({ length: 9 }, (_, i) => `line ${i + 1}`);
    expect(snippetShown(many.join('\n'), 6)).toEqual([...many.slice(0, 6), '…']);
    expect(snippetShown('a\nb', 6)).toEqual(['a', 'b']);
    const withMatch = [...many, '…', '// the timer is unref-ed', '…'].join('\n');
    expect(snippetShown(withMatch, 6)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', '…', '// the timer is unref-ed', '…']);
    expect(snippetShown(['line 1', '…', 'the last line'].join('\n'), 6)).toEqual(['line 1', '…', 'the last line']);
  });

  it('keeps the line matching the query of a snippet that is the whole chunk but longer than the lines shown', () => {
    const chunk = ['function schedule(fn) {', '  const t = setTimeout(fn, 10);', '  log(t);', '  log(fn);', '  count++;', '  track(t);', '  // the timer is unref-ed so it never holds the process open', '  t.unref();', '}'];
    expect(snippetShown(chunk.join('\n'), 6, 'is the timer unref-ed')).toEqual([...chunk.slice(0, 4), '…', chunk[6], '…']);
    expect(snippetShown(chunk.join('\n'), 6, 'schedule a timeout')).toEqual([...chunk.slice(0, 6), '…']);
    expect(snippetShown(chunk.join('\n'), 6)).toEqual([...chunk.slice(0, 6), '…']);
    expect(snippetShown(chunk.slice(0, 7).join('\n'), 6, 'holds the process open')).toEqual([...chunk.slice(0, 4), '…', chunk[6]]);
  });

  it('ends the footer with the staleness warning when the tree has moved on, and prints none when fresh', () => {
    const stale = {
      ...index, indexedAt: '2026-01-01T00:00:00.000Z', indexedCommit: 'aaaaaaaaaaaabbbb', headCommit: 'ccccccccccccdddd', pendingChanges: 2, stale: true,
      warning: 'Results may be out of date: HEAD is cccccccccccc but the index reflects aaaaaaaaaaaa; 2 changed path(s) are waiting to be indexed.',
    };
    const response: SearchResponse = { results: [], mode: 'hybrid', index: stale, warnings: [] };
    expect(formatResults(response)).toBe(
      'No results.\n' +
        '(hybrid; index of 1 file, 1 chunk, updated 2026-01-01T00:00:00.000Z)\n' +
        '(Stale index: Results may be out of date: HEAD is cccccccccccc but the index reflects aaaaaaaaaaaa; 2 changed path(s) are waiting to be indexed.)\n',
    );
    expect(formatResults({ ...response, index })).toBe('No results.\n(hybrid; index of 1 file, 1 chunk, updated never)\n');
  });
});
