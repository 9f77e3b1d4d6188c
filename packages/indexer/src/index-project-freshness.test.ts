import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { indexProject } from './index-project.js';
import { createHeldEmbedder } from './test-held-embedder.js';
import { after, openTestIndex, pendingChanges, type TestIndex } from './test-index.js';

/** A git work tree under the OS temp directory holding `files` (repo-relative path -> text), none committed. */
function gitRepo(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-fresh-')));
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** Sets the modification time of `rel` to `ms` (ms since the epoch). */
function setMtime(root: string, rel: string, ms: number): void {
  utimesSync(path.join(root, rel), ms / 1000, ms / 1000);
}

/** The stored chunk text of `rel`, joined. */
async function storedText({ store }: TestIndex, rel: string): Promise<string> {
  return (await store.chunksOfFile(rel)).map((c) => c.content).join('\n');
}

const OLD = 'export function greet(): string {\n  return "hello walrus";\n}\n';
const NEW = 'export function greet(): string {\n  return "hello narwhal";\n}\n';

describe('indexProject and freshness without a watcher', () => {
  it('a file saved after it was read but before its batch was written reads as pending, and the next run indexes the new text', async () => {
    const root = gitRepo({ 'src/greet.ts': OLD });
    const base = await openTestIndex(root);
    const held = createHeldEmbedder();
    const run = indexProject({ ...base, embedder: held.embedder });
    // The file has been read and its chunks are being embedded: save the new text now.
    const embedding = await held.reached;
    writeFileSync(path.join(root, 'src/greet.ts'), NEW);
    setMtime(root, 'src/greet.ts', embedding + 1);
    await after(embedding + 1);
    held.release();
    expect(await run).toMatchObject({ added: 1 });

    expect(await storedText(base, 'src/greet.ts')).toContain('walrus');
    expect(await pendingChanges(base)).toBe(1);
    // Stamped when it was read, before its batch went to the embedder.
    expect((await base.store.getFile('src/greet.ts'))!.indexedAt).toBeLessThanOrEqual(embedding);

    expect(await indexProject(base)).toMatchObject({ changed: 1, unchanged: 0 });
    expect(await storedText(base, 'src/greet.ts')).toContain('narwhal');
    expect(await pendingChanges(base)).toBe(0);
    await base.store.close();
  });

  it('an unchanged untracked file saved again after a run reads as fresh after the next run, which rewrites no chunk', async () => {
    const root = gitRepo({ 'src/greet.ts': OLD, 'src/other.ts': 'export const other = 1;\n' });
    const base = await openTestIndex(root);
    await indexProject(base);
    expect(await pendingChanges(base)).toBe(0);
    const first = (await base.store.getFile('src/greet.ts'))!;
    const chunks = await base.store.chunksOfFile('src/greet.ts');

    // Saved without a change (an editor's save-all, touch): unknown until read, so pending.
    const touched = first.indexedAt + 5;
    await after(touched);
    setMtime(root, 'src/greet.ts', touched);
    expect(await pendingChanges(base)).toBe(1);

    const writeFile = vi.spyOn(base.store, 'writeFile');
    const secondStarted = Date.now();
    expect(await indexProject(base)).toMatchObject({ added: 0, changed: 0, unchanged: 2 });
    expect(writeFile).not.toHaveBeenCalled();
    const second = (await base.store.getFile('src/greet.ts'))!;
    expect(second).toEqual({ ...first, indexedAt: second.indexedAt });
    expect(second.indexedAt).toBeGreaterThanOrEqual(secondStarted);
    // A file not saved since its read keeps its stamp.
    expect((await base.store.getFile('src/other.ts'))!.indexedAt).toBeLessThanOrEqual(first.indexedAt + 1000);
    expect(await base.store.chunksOfFile('src/greet.ts')).toEqual(chunks);
    expect(await pendingChanges(base)).toBe(0);
    await base.store.close();
  });

  it('a run limited to paths (a git hook) leaves a new file elsewhere pending: it did not look there', async () => {
    const root = gitRepo({ 'src/greet.ts': OLD });
    const base = await openTestIndex(root);
    await indexProject(base);
    const full = Number(await base.store.getMeta('indexedAt'));
    await after(full + 5);
    writeFileSync(path.join(root, 'src/unseen.ts'), 'export const unseen = 1;\n');
    setMtime(root, 'src/unseen.ts', full + 5);
    writeFileSync(path.join(root, 'src/greet.ts'), NEW);
    setMtime(root, 'src/greet.ts', full + 5);
    await after(full + 10);
    expect(await indexProject({ ...base, paths: ['src/greet.ts'] })).toMatchObject({ mode: 'paths', changed: 1 });
    expect(Number(await base.store.getMeta('indexedAt'))).toBe(full);
    expect(await pendingChanges(base)).toBe(1);
    expect(await indexProject(base)).toMatchObject({ mode: 'full', added: 1 });
    expect(await pendingChanges(base)).toBe(0);
    await base.store.close();
  });

  it('a new file created after the walk, while a batch is embedded, reads as pending after the run', async () => {
    const root = gitRepo({ 'src/greet.ts': OLD });
    const base = await openTestIndex(root);
    const held = createHeldEmbedder();
    const run = indexProject({ ...base, embedder: held.embedder });
    const embedding = await held.reached;
    writeFileSync(path.join(root, 'src/late.ts'), NEW);
    setMtime(root, 'src/late.ts', embedding + 1);
    await after(embedding + 1);
    held.release();
    expect(await run).toMatchObject({ added: 1, files: 1 });
    expect(await pendingChanges(base)).toBe(1);

    expect(await indexProject(base)).toMatchObject({ added: 1, unchanged: 1 });
    expect(await pendingChanges(base)).toBe(0);
    await base.store.close();
  });
});
