import { describe, expect, it } from 'vitest';
import { isDataChunk } from './drop-data-chunks.js';

describe('isDataChunk', () => {
  it('knows a window of an inlined base64 or hex blob', () => {
    expect(isDataChunk('AGFzbQEAAAABQgtgA39/fwBgAX8Bf2ACf38AYAF/AGABfwF+YAJ/fgBgBH9/f38AYAABf2AIf39/f39/f3wA'.repeat(4))).toBe(true);
    expect(isDataChunk(`    '${'0123456789abcdef'.repeat(20)}' +\n    '${'fedcba9876543210'.repeat(20)}'`)).toBe(true);
  });

  it('leaves code, prose, identifier lists and short data alone', () => {
    const code = Array.from({ length: 20 }, (_, i) => `export const handler${i} = (req) => reply(req, ${i});`).join('\n');
    const names = Array.from({ length: 60 }, (_, i) => `kSymbolName${i}`).join(', ');
    // Lines of a long identifier: all letters, but no run reaches 200 characters.
    const identifiers = Array.from({ length: 100 }, () => 'supercalifragilisticexpialidocious_x').join('\n');
    expect([isDataChunk(code), isDataChunk('word '.repeat(100)), isDataChunk(names), isDataChunk('QUJD'.repeat(40)), isDataChunk(identifiers)]).toEqual([false, false, false, false, false]);
  });
});
