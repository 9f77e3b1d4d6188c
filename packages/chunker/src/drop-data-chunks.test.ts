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
    expect([isDataChunk(code), isDataChunk('word '.repeat(100)), isDataChunk(names), isDataChunk('QUJD'.repeat(40))]).toEqual([false, false, false, false]);
  });
});
