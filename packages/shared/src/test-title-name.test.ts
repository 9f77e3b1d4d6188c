import { describe, expect, it } from 'vitest';
import { MAX_TEST_TITLE_CHARS, testTitleName } from './test-title-name.js';

describe('testTitleName', () => {
  it('joins whitespace runs into one space, trims, and cuts at 120 characters', () => {
    expect(testTitleName('  retries\n   on 503\t ')).toBe('retries on 503');
    const long = `${'a'.repeat(100)} ${'b'.repeat(50)}`;
    expect(testTitleName(long)).toBe(`${'a'.repeat(100)} ${'b'.repeat(19)}`);
    expect(testTitleName(long)).toHaveLength(MAX_TEST_TITLE_CHARS);
    expect(testTitleName(' \n ')).toBe('');
  });
});
