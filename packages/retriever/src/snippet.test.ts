import { describe, expect, it } from 'vitest';
import { makeSnippet } from './snippet.js';

const LINES = Array.from({ length: 19 }, (_, i) => `  const value${i + 1} = compute(${i + 1}); // step ${i + 1}`);
const CONTENT = ['function delay(ms) {', ...LINES.slice(1, 17), '  // the timer is unref-ed so a pending delay never keeps the process alive', '}'].join('\n');

describe('makeSnippet', () => {
  it('gives the whole content when it fits, else its first lines and a gap line', () => {
    expect(makeSnippet('a\nb', 10)).toBe('a\nb');
    expect(makeSnippet('first line\nsecond line\nthird line', 24)).toBe('first line\nsecond line\n…');
    expect(makeSnippet(CONTENT, 200, 'compute step')).toBe(`${CONTENT.slice(0, CONTENT.lastIndexOf('\n', 200))}\n…`);
  });

  it("shows the line holding the query's words when it lies past the first lines (a comment on a chunk's last lines)", () => {
    const snippet = makeSnippet(CONTENT, 200, 'why does a pending delay not keep the process alive');
    const lines = snippet.split('\n');
    expect(lines[0]).toBe('function delay(ms) {');
    expect(lines.slice(-3)).toEqual(['…', '  // the timer is unref-ed so a pending delay never keeps the process alive', '…']);
    expect(snippet.length).toBeLessThanOrEqual(200);
    // Every line but the gaps is a line of the chunk, in order.
    const kept = lines.filter((line) => line !== '…');
    expect(kept.every((line) => CONTENT.split('\n').includes(line))).toBe(true);
  });

  it('keeps the first lines alone when no line past them holds a query word, or without a query', () => {
    expect(makeSnippet(CONTENT, 200, 'zebra quokka')).toBe(makeSnippet(CONTENT, 200));
    expect(makeSnippet(CONTENT, 200, 'the and for')).toBe(makeSnippet(CONTENT, 200));
  });
});
