import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createChunker } from '@monorag/chunker';
import { createFakeEmbedder } from '@monorag/embedder-client';
import { openSqliteStore } from '@monorag/store';
import { describe, expect, it } from 'vitest';
import { indexProject } from './index-project.js';

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

async function setup() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-paths-')));
  for (const rel of ['a.ts', 'lib/b.ts', 'lib/deep/c.ts', 'docs/d.md']) write(root, rel, `export const ${rel.replace(/\W/g, '_')} = 1;\n`);
  const chunker = await createChunker();
  const info = await createFakeEmbedder().info();
  mkdirSync(path.join(root, '.monorag'));
  const store = await openSqliteStore({ file: path.join(root, '.monorag', 'i.sqlite'), identity: { model: info.model, dim: info.dim, chunkerVersion: chunker.version } });
  const base = { root, store, chunker, embedder: createFakeEmbedder(), maxFileBytes: 1 << 20, extraIgnores: ['/.monorag/'] };
  await indexProject(base);
  const files = async () => (await store.listFiles()).map((f) => f.path);
  return { root, store, base, files };
}

describe('indexProject with paths', () => {
  it('indexes only the given paths: new, changed, deleted files and deleted directories', async () => {
    const { root, store, base, files } = await setup();
    write(root, 'new.ts', 'export const fresh = 2;\n');
    write(root, 'a.ts', 'export const changed = 3;\n');
    write(root, 'docs/d.md', '# changed but not named\n');
    rmSync(path.join(root, 'lib'), { recursive: true });
    const report = await indexProject({ ...base, paths: ['new.ts', './a.ts', 'lib/'] });
    expect(report).toMatchObject({ mode: 'paths', added: 1, changed: 1, deleted: 2, unchanged: 0 });
    expect(await files()).toEqual(['a.ts', 'docs/d.md', 'new.ts']);
    // docs/d.md was not named, so it keeps its old content until a run covers it.
    expect((await store.chunksOfFile('docs/d.md'))[0]!.content).toContain('docs_d_md');
    await store.close();
  });

  it('indexes a new directory named as one path, and leaves out ignored paths', async () => {
    const { root, store, base, files } = await setup();
    write(root, 'pkg/x.ts', 'export const x = 1;\n');
    write(root, 'pkg/sub/y.ts', 'export const y = 1;\n');
    write(root, 'node_modules/m/index.js', 'module.exports = 1;\n');
    const report = await indexProject({ ...base, paths: ['pkg', 'node_modules/m/index.js'] });
    expect(report).toMatchObject({ mode: 'paths', added: 2 });
    expect(await files()).toEqual(['a.ts', 'docs/d.md', 'lib/b.ts', 'lib/deep/c.ts', 'pkg/sub/y.ts', 'pkg/x.ts']);
    await store.close();
  });

  it('re-evaluates the whole tree when an ignore file changes', async () => {
    const { root, store, base, files } = await setup();
    write(root, '.gitignore', 'lib/deep/\n');
    const report = await indexProject({ ...base, paths: ['.gitignore'] });
    expect(report.mode).toBe('full');
    expect(await files()).toEqual(['.gitignore', 'a.ts', 'docs/d.md', 'lib/b.ts']);
    rmSync(path.join(root, '.gitignore'));
    await indexProject({ ...base, paths: ['.gitignore'] });
    expect(await files()).toEqual(['a.ts', 'docs/d.md', 'lib/b.ts', 'lib/deep/c.ts']);
    await store.close();
  });

  it('drops a file that became too large or binary when named', async () => {
    const { root, store, base, files } = await setup();
    write(root, 'a.ts', 'x'.repeat(2000));
    const report = await indexProject({ ...base, maxFileBytes: 1000, paths: ['a.ts'] });
    expect(report).toMatchObject({ deleted: 1 });
    expect(await files()).toEqual(['docs/d.md', 'lib/b.ts', 'lib/deep/c.ts']);
    await store.close();
  });
});
