import type { Chunk, ScoredChunk } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { collapseDuplicates, MAX_DUPLICATE_PLACES } from './collapse-duplicates.js';

const hit = (path: string, content: string, score: number, startLine = 1): ScoredChunk => ({
  chunk: { id: `${path}:${startLine}`, path, startLine, endLine: startLine + 2, content } as Chunk,
  score,
});

describe('collapseDuplicates', () => {
  it('keeps the best-ranked copy of identical text and lists the others as its places, filling the limit with distinct hits', () => {
    const ranked = [hit('README.md', 'same', 0.9), hit('src/a.ts', 'a', 0.8), hit('docs/index.md', 'same', 0.7, 5), hit('src/b.ts', 'b', 0.6), hit('src/c.ts', 'c', 0.5)];
    const collapsed = collapseDuplicates(ranked, 3);
    expect(collapsed.map((h) => [h.chunk.path, h.alsoAt])).toEqual([
      ['README.md', [{ path: 'docs/index.md', startLine: 5, endLine: 7 }]],
      ['src/a.ts', []],
      ['src/b.ts', []],
    ]);
    // Text that differs by one character is no copy.
    expect(collapseDuplicates([hit('a.ts', 'x = 1', 1), hit('b.ts', 'x = 1 ', 0.5)], 5).map((h) => h.alsoAt.length)).toEqual([0, 0]);
  });

  it(`lists at most ${MAX_DUPLICATE_PLACES} places, and an empty ranking or a limit of 0 gives no hits`, () => {
    const copies = Array.from({ length: 8 }, (_, i) => hit(`vendor/${i}.ts`, 'same', 1 - i / 10));
    const [only] = collapseDuplicates(copies, 10);
    expect(only?.alsoAt.map((p) => p.path)).toEqual(['vendor/1.ts', 'vendor/2.ts', 'vendor/3.ts', 'vendor/4.ts', 'vendor/5.ts']);
    expect(collapseDuplicates([], 5)).toEqual([]);
    expect(collapseDuplicates(copies, 0)).toEqual([]);
  });
});
