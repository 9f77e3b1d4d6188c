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
    expect(codeTerms('café — "naïve" überCount')).toEqual([
      'café', 'naïve', 'übercount', 'über', 'count',
    ]);
    expect(codeTerms('cafe\u0301')).toEqual(['café']);
    expect(codeTerms('')).toEqual([]);
  });

  it('turns runs of Chinese, Japanese and Korean characters into overlapping bigrams (a trial could not find 连接池 in a sentence)', () => {
    expect(codeTerms('这是一个关于连接池的说明。连接池会在失败时重试。')).toEqual([
      '这是', '是一', '一个', '个关', '关于', '于连', '连接', '接池', '池的', '的说', '说明',
      '连接', '接池', '池会', '会在', '在失', '失败', '败时', '时重', '重试',
    ]);
    expect(codeTerms('変数名 池 コネクション 연결')).toEqual(['変数', '数名', '池', 'コネ', 'ネク', 'クシ', 'ショ', 'ョン', '연결']);
    expect(codeTerms('getUser用户 naïve')).toEqual(['getuser', 'get', 'user', '用户', 'naïve']);
  });
});

describe('queryTerms', () => {
  it('deduplicates and drops stopwords', () => {
    expect(queryTerms('How does parseHeaders work? parse the headers')).toEqual([
      'parseheaders', 'pars', 'header', 'work',
    ]);
  });

  it('gives the bigrams of a CJK query, as the documents hold them', () => {
    expect(queryTerms('连接池')).toEqual(['连接', '接池']);
    expect(queryTerms('说明')).toEqual(['说明']);
  });

  it('gives [] for stopwords and punctuation only', () => {
    expect(queryTerms('what is the "*" AND (')).toEqual([]);
  });
});
