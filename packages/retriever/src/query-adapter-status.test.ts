import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QUERY_ADAPTER_DIR } from './query-adapter.js';
import { queryAdapterStatus } from './query-adapter-status.js';

const MINILM = 'sentence-transformers/all-MiniLM-L6-v2';

describe('queryAdapterStatus', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A copy of the bundled adapter files in a temp folder. */
  function copy(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-adapter-status-'));
    dirs.push(dir);
    for (const ext of ['f32', 'json']) copyFileSync(path.join(QUERY_ADAPTER_DIR, `all-MiniLM-L6-v2.${ext}`), path.join(dir, `all-MiniLM-L6-v2.${ext}`));
    return dir;
  }

  it('is active with the bundled adapter, naming its file and size', async () => {
    const dir = copy();
    expect(await queryAdapterStatus(MINILM, 384, true, { dir })).toEqual({ state: 'active', detail: `active: ${path.join(dir, 'all-MiniLM-L6-v2')}.f32 (384 x 384)` });
  });

  it('is off when search.queryAdapter is false, naming what switched it off, without reading the files', async () => {
    expect(await queryAdapterStatus(MINILM, 384, false, { dir: '/nonexistent' })).toEqual({
      state: 'off',
      detail: "off (search.queryAdapter is false): dense search uses the model's own query vectors",
    });
    expect((await queryAdapterStatus(MINILM, 384, false, { offBy: 'MONORAG_QUERY_ADAPTER is off', dir: '/nonexistent' })).detail).toBe(
      "off (MONORAG_QUERY_ADAPTER is off): dense search uses the model's own query vectors",
    );
  });

  it('is none for a model or dimension no adapter was fitted for', async () => {
    expect(await queryAdapterStatus('BAAI/bge-small-en-v1.5', 384, true)).toEqual({
      state: 'none',
      detail: "none bundled for BAAI/bge-small-en-v1.5 (384 dims): dense search uses the model's own query vectors",
    });
    expect((await queryAdapterStatus(MINILM, 768, true, { dir: copy() })).state).toBe('none');
  });

  it('is unavailable with the fault and its fix when the matrix is damaged', async () => {
    const dir = copy();
    writeFileSync(path.join(dir, 'all-MiniLM-L6-v2.f32'), Buffer.alloc(16));
    const status = await queryAdapterStatus(MINILM, 384, true, { dir });
    expect(status.state).toBe('unavailable');
    expect(status.detail).toBe(
      `unavailable: The query adapter ${path.join(dir, 'all-MiniLM-L6-v2')}.f32 holds 16 bytes, not 589824 (384 x 384 float32 for the dim 384 in all-MiniLM-L6-v2.json; one of the two files is damaged); ` +
        `restore it (\`git -C ${dir} checkout -- all-MiniLM-L6-v2.f32 all-MiniLM-L6-v2.json\` in a clone of monorag, or reinstall monorag; \`pnpm adapter:train\` rebuilds it), then restart monorag. ` +
        "Until then dense search uses the model's own query vectors.",
    );
    // Restored while the process runs: still unavailable, as the retriever of this process still warns, until the restart the message asks for.
    copyFileSync(path.join(QUERY_ADAPTER_DIR, 'all-MiniLM-L6-v2.f32'), path.join(dir, 'all-MiniLM-L6-v2.f32'));
    expect(await queryAdapterStatus(MINILM, 384, true, { dir })).toEqual(status);
  });
});
