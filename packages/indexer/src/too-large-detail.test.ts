import { describe, expect, it, vi } from 'vitest';
import { testNotebook } from './test-notebook.js';
import { NOTEBOOK_SIZE_FACTOR, tooLargeDetail } from './too-large-detail.js';

const CODE = 'def rainfall_anomaly(monthly):\n    # écart à la moyenne\n    return monthly - mean(monthly)\n';
/** `# Rainfall` (10) + CODE's 93 UTF-8 bytes (91 characters: `é` and `à` take 2) less its final newline. */
const SOURCE_BYTES = 10 + 92;

/** tooLargeDetail of `text` as a file of its UTF-8 size (or `size`), with the limit `maxFileBytes`. */
async function detail(path: string, text: string | undefined, maxFileBytes: number, size = Buffer.byteLength(text ?? '')) {
  const readText = vi.fn(async () => text);
  return { detail: await tooLargeDetail({ path, size, maxFileBytes, readText }), reads: readText.mock.calls.length };
}

describe('tooLargeDetail', () => {
  it('compares any other file by its size on disk, without reading it', async () => {
    expect(await detail('data/rain.json', 'x'.repeat(2000), 1000)).toEqual({ detail: '2000 bytes > 1000', reads: 0 });
    expect(await detail('data/rain.json', 'x'.repeat(1000), 1000)).toEqual({ detail: null, reads: 0 });
  });

  it("indexes a notebook over the limit whose cell sources are under it: its outputs are not indexed", async () => {
    const text = testNotebook({ code: CODE, imageChars: 5000 });
    expect(Buffer.byteLength(text)).toBeGreaterThan(5000);
    expect(await detail('nb/rain.ipynb', text, 1000)).toEqual({ detail: null, reads: 1 });
    expect(await detail('nb/Rain.IPYNB', text, 1000)).toEqual({ detail: null, reads: 1 });
    // The sources are measured in UTF-8 bytes: a limit one byte under them leaves the notebook out.
    const small = testNotebook({ code: CODE, imageChars: 500 });
    expect(Buffer.byteLength(small)).toBeLessThan(16 * (SOURCE_BYTES - 1));
    expect(await detail('nb/rain.ipynb', small, SOURCE_BYTES)).toEqual({ detail: null, reads: 1 });
    expect((await detail('nb/rain.ipynb', small, SOURCE_BYTES - 1)).detail).toBe(
      `cell sources ${SOURCE_BYTES} bytes > ${SOURCE_BYTES - 1} (notebook file ${Buffer.byteLength(small)} bytes)`,
    );
  });

  it('leaves out a notebook whose cell sources are over the limit, saying so', async () => {
    const code = `${'x = 1  # a counter\n'.repeat(100)}`;
    const text = testNotebook({ code, imageChars: 100 });
    expect(await detail('nb/big.ipynb', text, 1000)).toEqual({
      detail: `cell sources ${10 + 1900 - 1} bytes > 1000 (notebook file ${Buffer.byteLength(text)} bytes)`,
      reads: 1,
    });
  });

  it(`leaves out a notebook over ${NOTEBOOK_SIZE_FACTOR} x the limit unread, naming that ceiling`, async () => {
    const text = testNotebook({ code: CODE, imageChars: 17_000 });
    expect(await detail('nb/plots.ipynb', text, 1000)).toEqual({
      detail: `notebook file ${Buffer.byteLength(text)} bytes > 16000, 16 x maxFileBytes: the most read to measure its cell sources`,
      reads: 0,
    });
    expect(await detail('nb/plots.ipynb', text, 1000, 16_000)).toEqual({ detail: null, reads: 1 });
  });

  it('measures a .ipynb file that is no notebook (not JSON, nbformat 3, binary) by its file size, as today', async () => {
    expect((await detail('nb/broken.ipynb', `{"cells": [${'x'.repeat(2000)}`, 1000)).detail).toBe('2011 bytes > 1000 (invalid-notebook: the file size counts)');
    const v3 = JSON.stringify({ nbformat: 3, worksheets: [{ cells: [] }], pad: 'x'.repeat(2000) });
    expect((await detail('nb/old.ipynb', v3, 1000)).detail).toBe(`${v3.length} bytes > 1000 (notebook-version: the file size counts)`);
    expect(await detail('nb/binary.ipynb', undefined, 1000, 2000)).toEqual({ detail: '2000 bytes > 1000', reads: 1 });
  });
});
