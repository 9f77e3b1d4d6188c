import { describe, expect, it } from 'vitest';
import { codeTerms } from './code-terms.js';
import { queryTerms } from './query-terms.js';

describe('codeTerms', () => {
  it('splits camelCase with acronyms and keeps the whole identifier', () => {
    expect(codeTerms('parseHTTPHeader')).toEqual(['parsehttpheader', 'pars', 'http', 'header']);
    expect(codeTerms('XMLHttpRequest')).toEqual(['xmlhttprequest', 'xml', 'http', 'request']);
  });

  it('splits snake_case, digits and $', () => {
    expect(codeTerms('MAX_RETRY_COUNT')).toEqual(['max_retry_count', 'max', 'retri', 'count']);
    expect(codeTerms('base64Encode')).toEqual(['base64encode', 'base', '64', 'encod']);
    expect(codeTerms('$scope __init__')).toEqual(['$scope', 'scope', '__init__', 'init']);
  });

  it('emits kebab-case parts and the joined whole', () => {
    expect(codeTerms('content-type')).toEqual(['content', 'type', 'content-type']);
    expect(codeTerms('aria-labelledBy')).toEqual(['aria', 'labelledby', 'label', 'by', 'aria-labelledby']);
  });

  it('keeps numbers whole, drops 1-char terms, keeps duplicates', () => {
    expect(codeTerms('if (x === 404) return parse(parse, 0x1F, 7);')).toEqual([
      'if', '404', 'return', 'pars', 'pars', '0x1f',
    ]);
  });

  it('keeps dotted versions and decimals as numbers joined by _, with each prefix (a trial could not find `2.0.0`)', () => {
    expect(codeTerms('## 2.0.0')).toEqual(['2_0', '2_0_0']);
    expect(codeTerms('what changed in 2.0')).toEqual(['what', 'chang', 'in', '2_0']);
    expect(codeTerms('v10.4.1 and 3.14')).toEqual(['v10', '10', '10_4', '10_4_1', 'and', '14', '3_14']);
    expect(codeTerms('127.0.0.1')).toEqual(['127', '127_0', '127_0_0', '127_0_0_1']);
    // Dots between names stay separators.
    expect(codeTerms('pino.destination foo2.bar')).toEqual(['pino', 'destin', 'foo2', 'foo', 'bar']);
  });

  it('analyses paths and drops terms longer than 64 characters', () => {
    expect(codeTerms('src/http/parseHeaders.ts')).toEqual(['src', 'http', 'parseheaders', 'pars', 'header', 'ts']);
    expect(codeTerms(`${'a'.repeat(65)} ok`)).toEqual(['ok']);
  });

  it('stems plain words and identifier parts (Porter), keeping compound identifiers whole', () => {
    expect(codeTerms('retrying maxRetries retries')).toEqual(['retri', 'maxretries', 'max', 'retri', 'retri']);
    expect(codeTerms('Headers headers header')).toEqual(['header', 'header', 'header']);
  });

  it('treats Unicode letters as identifier characters', () => {
    expect(codeTerms('café — "naïve" überCount 変数名')).toEqual([
      'café', 'naïve', 'übercount', 'über', 'count', '変数名',
    ]);
    expect(codeTerms('cafe\u0301')).toEqual(['café']);
    expect(codeTerms('')).toEqual([]);
  });
});

describe('queryTerms', () => {
  it('deduplicates and drops stopwords', () => {
    expect(queryTerms('How does parseHeaders work? parse the headers')).toEqual([
      'parseheaders', 'pars', 'header', 'work',
    ]);
  });

  it('gives [] for stopwords and punctuation only', () => {
    expect(queryTerms('what is the "*" AND (')).toEqual([]);
  });
});
