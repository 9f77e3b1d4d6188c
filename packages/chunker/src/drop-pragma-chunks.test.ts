import { describe, expect, it } from 'vitest';
import { createChunker } from './create-chunker.js';
import { isPragmaChunk } from './drop-pragma-chunks.js';

describe('isPragmaChunk', () => {
  it('holds for chunks of source-map and source-URL pragmas only, in their JavaScript and CSS forms', () => {
    expect(isPragmaChunk('//# sourceMappingURL=merge.js.map')).toBe(true);
    expect(isPragmaChunk('\n//@ sourceMappingURL=data:application/json;base64,eyJ2IjozfQ==\n')).toBe(true);
    expect(isPragmaChunk('/*# sourceMappingURL=site.css.map */')).toBe(true);
    expect(isPragmaChunk('//# sourceURL=webpack://app/./src/index.js')).toBe(true);
    expect(isPragmaChunk('')).toBe(false);
    expect(isPragmaChunk('export default merge;\n//# sourceMappingURL=merge.js.map')).toBe(false);
    expect(isPragmaChunk('// see sourceMappingURL=x in the spec')).toBe(false);
  });
});

describe('the chunker drops a trailing source-map pragma chunk', () => {
  it('keeps the code chunks of a compiled file and no chunk for its last line', async () => {
    const chunker = await createChunker();
    const text = 'export const merge = (...sources) => {\n  return Object.assign({}, ...sources);\n};\n//# sourceMappingURL=merge.js.map\n';
    expect(chunker.chunk('distribution/utils/merge.js', text).map((c) => [c.startLine, c.endLine, c.symbol])).toEqual([[1, 3, 'merge']]);
  });
});
