import { createChunker } from '@monorag/chunker';
import { describe, expect, it } from 'vitest';
import { docCommentPair } from './adapter-pairs.js';

describe('docCommentPair', () => {
  it('pairs the first paragraph of a chunk\'s doc comment with the code under its header', async () => {
    const source = [
      '/**',
      ' * Returns the delay before the next retry, doubling it',
      ' * after each failed attempt.',
      ' *',
      ' * Longer notes that are not the summary.',
      ' * @param attempt the number of attempts so far',
      ' */',
      'export function backoff(attempt) {',
      '  const base = 100;',
      '  return base * 2 ** attempt;',
      '}',
      '',
    ].join('\n');
    const [chunk] = (await createChunker({})).chunk('lib/retry.js', source);
    expect(docCommentPair(chunk!.header, chunk!.content)).toEqual({
      query: 'Returns the delay before the next retry, doubling it after each failed attempt.',
      code: `${chunk!.header}\nexport function backoff(attempt) {\n  const base = 100;\n  return base * 2 ** attempt;\n}`,
    });
  });

  it('leaves out chunks without a leading doc comment, tag-only or short summaries, and one-line bodies', () => {
    const body = 'function f() {\n  a();\n  b();\n}';
    expect(docCommentPair('f.js', `// Returns the delay before the next retry attempt.\n${body}`)).toBeUndefined();
    expect(docCommentPair('f.js', `/**\n * @param x the delay before the next retry attempt\n */\n${body}`)).toBeUndefined();
    expect(docCommentPair('f.js', `/** Short. */\n${body}`)).toBeUndefined();
    expect(docCommentPair('f.js', '/** Returns the delay before the next retry attempt. */\nconst f = () => 1;')).toBeUndefined();
    expect(docCommentPair('f.js', `/** Returns the delay before the next retry attempt. */\n\n${body}`)?.code).toBe(`f.js\n${body}`);
  });
});
