import { describe, expect, it } from 'vitest';
import { MAX_TEST_TITLE_CHARS, testTitleName } from './test-title-name.js';

describe('testTitleName', () => {
  it('joins whitespace runs into one space and trims', () => {
    expect(testTitleName('  retries\n   on 503\t ')).toBe('retries on 503');
    expect(testTitleName(' \n ')).toBe('');
    expect(testTitleName('x'.repeat(MAX_TEST_TITLE_CHARS))).toBe('x'.repeat(MAX_TEST_TITLE_CHARS));
  });

  it('cuts a longer title after its last whole word that fits, ending with an ellipsis', () => {
    const long = 'keeps the socket open when the server answers 100-continue and then sends the body in several chunks of different sizes';
    expect(long).toHaveLength(MAX_TEST_TITLE_CHARS - 1);
    expect(testTitleName(`${long} over time`)).toBe(`${long}…`);
    expect(testTitleName(`${long}s over time`)).toBe('keeps the socket open when the server answers 100-continue and then sends the body in several chunks of different…');
    expect(testTitleName(`${long} over time`).length).toBeLessThanOrEqual(MAX_TEST_TITLE_CHARS);
    expect(testTitleName(`${'a'.repeat(100)} ${'b'.repeat(50)}`)).toBe(`${'a'.repeat(100)}…`);
    // No space in the last 40 characters: cut mid-word.
    expect(testTitleName(`${'a'.repeat(70)} ${'b'.repeat(80)}`)).toBe(`${'a'.repeat(70)} ${'b'.repeat(48)}…`);
    expect(testTitleName('c'.repeat(200))).toBe(`${'c'.repeat(119)}…`);
  });
});
