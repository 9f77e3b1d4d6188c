import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createChunker } from '@monorag/chunker';
import { createFakeEmbedder, type Embedder } from '@monorag/embedder-client';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { openSqliteStore } from '@monorag/store';
import { describe, expect, it } from 'vitest';
import { indexProject } from './index-project.js';

function repo(fileCount: number): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-idx-')));
  mkdirSync(path.join(root, 'src'));
  for (let i = 0; i < fileCount; i++) {
    writeFileSync(path.join(root, 'src', `m${i}.ts`), `/** Module ${i}. */\nexport function handler${i}(x: number): number {\n  return x + ${i};\n}\n`);
  }
  return root;
}

/** A fake embedder whose `embed` fails from call number `failFrom` on (1-based). */
function flakyEmbedder(failFrom: number): Embedder {
  const fake = createFakeEmbedder();
  let calls = 0;
  return {
    info: () => fake.info(),
    embed: (texts) => {
      calls++;
      if (calls >= failFrom) return Promise.reject(new MonoragError(ErrorCode.EMBEDDER_UNAVAILABLE, 'down'));
      return fake.embed(texts);
    },
  };
}

describe('indexProject', () => {
  it('keeps what was written before a failure and resumes from there', async () => {
    const root = repo(6);
    const chunker = await createChunker();
    const info = await createFakeEmbedder().info();
    const file = path.join(root, '.monorag', 'index.sqlite');
    mkdirSync(path.dirname(file));
    const store = await openSqliteStore({ file, identity: { model: info.model, dim: info.dim, chunkerVersion: chunker.version } });
    const base = { root, store, chunker, maxFileBytes: 1 << 20, extraIgnores: ['/.monorag/'], embedBatchChunks: 2 };

    await expect(indexProject({ ...base, embedder: flakyEmbedder(3) })).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
    const partial = await store.listFiles();
    expect(partial.map((f) => f.path)).toEqual(['src/m0.ts', 'src/m1.ts', 'src/m2.ts', 'src/m3.ts']);
    for (const f of partial) expect((await store.chunksOfFile(f.path)).length).toBe(f.chunkCount);

    const resumed = await indexProject({ ...base, embedder: createFakeEmbedder() });
    expect(resumed).toMatchObject({ files: 6, added: 2, unchanged: 4, deleted: 0 });
    await store.close();
  });
});
