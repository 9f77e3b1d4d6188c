import { createFakeEmbedder } from '@monorag/embedder-client';
import { describe, expect, it } from 'vitest';
import { createIndexChunker } from './create-index-chunker.js';

// 200 lines of 3 word pieces each with a vocabulary of only [UNK] (`longword` + `_` + `x`, every word unknown).
const text = Array.from({ length: 200 }, () => 'supercalifragilisticexpialidocious_x').join('\n');
const ranges = (chunks: { startLine: number; endLine: number }[]): [number, number][] => chunks.map((c) => [c.startLine, c.endLine]);

describe('createIndexChunker', () => {
  it("counts tokens with the server's WordPiece vocabulary when it has one", async () => {
    const embedder = createFakeEmbedder({ vocabulary: ['[PAD]', '[UNK]'] });
    const chunker = await createIndexChunker(embedder, await embedder.info());
    // Budget 256 - 2 special tokens - 3 for the header `notes.txt` = 251 tokens: 83 lines of 3.
    // The last window (34 lines, 102 tokens) is over a quarter of the budget, so it keeps its rows.
    expect(ranges(chunker.chunk('notes.txt', text))).toEqual([
      [1, 83],
      [84, 166],
      [167, 200],
    ]);
    expect(chunker.version).toMatch(/\+wordpiece-2$/);
  });

  it('falls back to the estimate without a vocabulary', async () => {
    const embedder = createFakeEmbedder();
    const chunker = await createIndexChunker(embedder, await embedder.info());
    // estimateTokens: ceil(34 / 4) + 1 + 1 = 11 per line, header 5: (254 - 5) / 11 = 22 lines per window.
    expect(ranges(chunker.chunk('notes.txt', text)).slice(0, 2)).toEqual([
      [1, 22],
      [23, 44],
    ]);
    expect(chunker.version).toMatch(/\+estimate$/);
  });
});
