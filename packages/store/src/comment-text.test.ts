import { describe, expect, it } from 'vitest';
import { commentText as commentsOf } from './comment-text.js';
import { lexicalBody } from './lexical-body.js';
import { codeTerms } from './code-terms.js';
import type { Chunk } from '@monorag/shared';

/** The comments of `content` in a chunk of `language` and `kind` (default a function). */
const commentText = (content: string, language: string, kind: Chunk['kind'] = 'function'): string => commentsOf({ content, language, kind });

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

  it('reads the code cells of a Jupyter notebook as Python, whatever their chunk kind', () => {
    const cell = ['def load_sales(path):', '    """Read the monthly sales, dropping refunds."""', '    return read(path)  # cached'].join('\n');
    expect(commentText(cell, 'jupyter', 'function')).toBe('"""Read the monthly sales, dropping refunds."""\n# cached');
    expect(commentText("%matplotlib inline\nplot(x, color='#f00')  # trend", 'jupyter', 'module')).toBe('# trend');
    expect(commentText('# fit the trend\nmodel.fit(x)', 'jupyter', 'window')).toBe('# fit the trend');
  });

  it('gives nothing for the Markdown cells of a notebook (kind section)', () => {
    expect(commentText('# Sales analysis\n\nLoad the sales, then `fit()` # them', 'jupyter', 'section')).toBe('');
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

  it("counts a notebook code chunk's comment and docstring words twice, and a Markdown cell's words once", () => {
    const code = codeTerms(lexicalBody(chunk('def trend(xs):\n    """Least squares slope."""\n    return fit(xs)  # monthly', 'jupyter')));
    expect(code.filter((t) => t === 'slope')).toHaveLength(2);
    expect(code.filter((t) => t === 'monthli')).toHaveLength(2);
    expect(code.filter((t) => t === 'fit')).toHaveLength(1);
    const prose: Chunk = { ...chunk('# Sales analysis\n\nFit a monthly trend.', 'jupyter'), kind: 'section', symbol: 'Sales analysis' };
    expect(lexicalBody(prose)).toBe('lib/a.js\n# Sales analysis\n\nFit a monthly trend.');
  });
});
