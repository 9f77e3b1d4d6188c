import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './registry.js';
import { LANGUAGE_IDS, languageIdOf, resolveLanguageId } from './resolve-language-id.js';

describe('resolveLanguageId', () => {
  it('maps ids, extensions, interpreters and common names to the ids stored in chunks, case-insensitively', () => {
    const cases: Array<[string, string]> = [
      ['typescript', 'typescript'], ['ts', 'typescript'], ['TS', 'typescript'], ['tsx', 'tsx'],
      ['js', 'javascript'], ['mjs', 'javascript'], ['node', 'javascript'],
      ['py', 'python'], ['python3', 'python'], ['rs', 'rust'], ['golang', 'go'], ['rb', 'ruby'],
      ['cs', 'csharp'], ['c#', 'csharp'], ['c++', 'cpp'], ['h', 'c'], ['kt', 'kotlin'], ['sh', 'bash'], ['shell', 'bash'],
      ['md', 'markdown'], ['yml', 'yaml'], ['restructuredtext', 'rst'], ['txt', 'text'], [' Markdown ', 'markdown'],
      ['ipynb', 'jupyter'], ['notebook', 'jupyter'], ['Jupyter', 'jupyter'],
    ];
    for (const [name, id] of cases) expect(resolveLanguageId(name), name).toBe(id);
  });

  it('gives undefined instead of throwing from languageIdOf', () => {
    expect(languageIdOf(' Python3 ')).toBe('python');
    expect(languageIdOf('julia')).toBeUndefined();
  });

  it('lists every registry id as valid', () => {
    expect(LANGUAGE_IDS).toEqual(LANGUAGES.map((spec) => spec.id));
    for (const id of LANGUAGE_IDS) expect(resolveLanguageId(id)).toBe(id);
  });

  it('rejects an unknown language, naming the argument, the nearest id and the valid ones', () => {
    expect(() => resolveLanguageId('typscript', '--language')).toThrowError(
      `--language: unknown language "typscript" (did you mean "typescript"?). Give one of: ${LANGUAGE_IDS.join(', ')} (file extensions such as ts, js, py also work).`,
    );
    expect(() => resolveLanguageId('klingon', '--language')).toThrowError(/^--language: unknown language "klingon"\. Give one of: typescript, /);
    // An empty value is not a near miss of a one-letter id.
    expect(() => resolveLanguageId(' ', '--language')).toThrowError(/^--language: no language given\. Give one of: typescript, /);
    expect(() => resolveLanguageId('klingon')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
