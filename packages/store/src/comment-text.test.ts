import { describe, expect, it } from 'vitest';
import { commentText } from './comment-text.js';
import { lexicalBody } from './lexical-body.js';
import { codeTerms } from './code-terms.js';
import type { Chunk } from '@monorag/shared';

describe('commentText', () => {
  it('reads line and block comments of C-family code, not URLs or division', () => {
    const js = [
      '/** Waits before the next attempt. */',
      "const url = 'https://example.com/a'; // the mirror",
      'const half = total / 2 /* rounded */;',
    ].join('\n');
    expect(commentText(js, 'javascript')).toBe('/** Waits before the next attempt. */\n// the mirror\n/* rounded */');
    expect(commentText('let x = 1;', 'typescript')).toBe('');
  });

  it('reads Python docstrings and hash comments, and hash comments of shell scripts', () => {
    const py = ['def retry():', '    """Back off exponentially."""', "    color = '#fff'  # white", '    return 1'].join('\n');
    expect(commentText(py, 'python')).toBe('"""Back off exponentially."""\n# white');
    expect(commentText('echo $# # count args', 'bash')).toBe('# count args');
  });

  it('gives nothing for prose and data files', () => {
    expect(commentText('# Title\n\nSome // text', 'markdown')).toBe('');
    expect(commentText('{"a": "// b"}', 'json')).toBe('');
  });
});

describe('lexicalBody', () => {
  const chunk = (content: string, language: string): Chunk => ({
    id: 'x', path: 'lib/a.js', language, startLine: 1, endLine: 2, kind: 'function', symbol: 'wait', scopes: [],
    header: 'lib/a.js', content, contentHash: 'h',
  });

  it("counts a code chunk's comment words twice and its code once", () => {
    const terms = codeTerms(lexicalBody(chunk('// back off\nfunction wait () { return delay }', 'javascript')));
    expect(terms.filter((t) => t === 'back')).toHaveLength(2);
    expect(terms.filter((t) => t === 'delai')).toHaveLength(1);
  });

  it('leaves prose as it is', () => {
    expect(lexicalBody(chunk('Back off // twice', 'markdown'))).toBe('lib/a.js\nBack off // twice');
  });
});
