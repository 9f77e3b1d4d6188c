import { describe, expect, it } from 'vitest';
import { cjkBigrams, splitCjkRuns } from './cjk-bigrams.js';

describe('splitCjkRuns', () => {
  it('cuts Han, kana and Hangul runs out of the text, keeping the text between them', () => {
    expect(splitCjkRuns('see 连接池 now')).toEqual(['see ', '连接池', ' now']);
    expect(splitCjkRuns('プール。연결')).toEqual(['', 'プール', '。', '연결', '']);
    expect(splitCjkRuns('café naïve')).toEqual(['café naïve']);
  });
});

describe('cjkBigrams', () => {
  it('gives overlapping bigrams of a run and a lone character as itself (Lucene CJKBigramFilter)', () => {
    expect(cjkBigrams('连接池')).toEqual(['连接', '接池']);
    expect(cjkBigrams('说明')).toEqual(['说明']);
    expect(cjkBigrams('池')).toEqual(['池']);
    expect(cjkBigrams('𠮷野家')).toEqual(['𠮷野', '野家']);
  });
});
