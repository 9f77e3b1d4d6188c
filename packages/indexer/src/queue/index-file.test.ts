import { statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SECRET_SCANNER_ID } from '@monorag/secrets';
import { createIgnoreFilter } from '../ignore-filter.js';
import { indexProject } from '../index-project.js';
import { REQUIRED_SCANNER_META, SECRET_SCANNER_META } from '../redact-file-text.js';
import { createHeldEmbedder } from '../test-held-embedder.js';
import { openTestIndex } from '../test-index.js';
import { testNotebook } from '../test-notebook.js';
import { indexFile } from './index-file.js';
import { planFileJobs } from './plan-file-jobs.js';
import { writeTokenProject } from './testing/token-project.js';

/** The chunk text stored for `file`, joined. */
const storedText = async (store: { chunksOfFile(path: string): Promise<{ content: string }[]> }, file: string): Promise<string> =>
  (await store.chunksOfFile(file)).map((c) => c.content).join('\n');

describe('indexFile with a worker configured unlike the enqueuer', () => {
  it('refuses the job (CONFIG_INVALID naming both scanners) and leaves the index as it was', async () => {
    const { root, token } = writeTokenProject();
    const base = await openTestIndex(root);
    await indexProject({ ...base, redactSecrets: false });
    await base.store.setMeta(REQUIRED_SCANNER_META, SECRET_SCANNER_ID);
    const writeFile = vi.spyOn(base.store, 'writeFile');
    await expect(indexFile({ ...base, path: 'src/deploy.ts', redactSecrets: false })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining(`This worker redacts secrets with "off" (index.redactSecrets false), but the last whole-tree \`monorag jobs enqueue\` requires "${SECRET_SCANNER_ID}"`),
    });
    expect(writeFile).not.toHaveBeenCalled();
    expect(await storedText(base.store, 'src/deploy.ts')).toContain(token);
    // A worker with the required setting goes ahead.
    expect(await indexFile({ ...base, path: 'src/deploy.ts' })).toEqual({ path: 'src/deploy.ts', outcome: 'indexed', chunks: 1 });
    await base.store.close();
  });
});

describe('indexFile on an unchanged file (the secret re-scan)', () => {
  it('index written with redaction off, worker redacting: a file with no secret stays unchanged with no store write', async () => {
    const base = await openTestIndex(writeTokenProject().root);
    await indexProject({ ...base, redactSecrets: false });
    const before = await base.store.getFile('src/plain.ts');
    const writeFile = vi.spyOn(base.store, 'writeFile');
    expect(await indexFile({ ...base, path: 'src/plain.ts' })).toEqual({ path: 'src/plain.ts', outcome: 'unchanged', chunks: 1 });
    expect(writeFile).not.toHaveBeenCalled();
    expect(await base.store.getFile('src/plain.ts')).toEqual(before);
    await base.store.close();
  });

  it('index written with redaction off, worker redacting: the file holding a token is re-chunked with the placeholder', async () => {
    const { root, token } = writeTokenProject();
    const base = await openTestIndex(root);
    await indexProject({ ...base, redactSecrets: false });
    expect(await storedText(base.store, 'src/deploy.ts')).toContain(token);
    expect(await indexFile({ ...base, path: 'src/deploy.ts' })).toEqual({ path: 'src/deploy.ts', outcome: 'indexed', chunks: 1 });
    const text = await storedText(base.store, 'src/deploy.ts');
    expect(text).toContain('  return new Client({ token: "[REDACTED:github]" });');
    expect(text).not.toContain(token);
    expect((await base.store.getFile('src/deploy.ts'))?.secrets).toEqual({ github: 1 });
    await base.store.close();
  });

  it('index written with redaction on, worker not redacting: the token is indexed as written and the manifest counts no secret', async () => {
    const { root, token } = writeTokenProject();
    const base = await openTestIndex(root);
    await indexProject(base);
    expect(await indexFile({ ...base, path: 'src/deploy.ts', redactSecrets: false })).toEqual({ path: 'src/deploy.ts', outcome: 'indexed', chunks: 1 });
    expect(await storedText(base.store, 'src/deploy.ts')).toContain(token);
    expect((await base.store.getFile('src/deploy.ts'))?.secrets).toBeUndefined();
    await base.store.close();
  });

  it("while the store meta names the worker's scanner, an unchanged file is not scanned again", async () => {
    const { root, token } = writeTokenProject();
    const base = await openTestIndex(root);
    await indexProject({ ...base, redactSecrets: false });
    // Claims a redacted index: the worker trusts it (the meta is written only once a re-scan has drained).
    await base.store.setMeta(SECRET_SCANNER_META, SECRET_SCANNER_ID);
    const writeFile = vi.spyOn(base.store, 'writeFile');
    expect(await indexFile({ ...base, path: 'src/deploy.ts' })).toEqual({ path: 'src/deploy.ts', outcome: 'unchanged', chunks: 1 });
    expect(writeFile).not.toHaveBeenCalled();
    expect(await storedText(base.store, 'src/deploy.ts')).toContain(token);
    await base.store.close();
  });
});

describe('indexFile on a notebook over the size limit', () => {
  it('indexes one whose cell sources fit (as the walk plans it), and deletes it once its file passes 16 x the limit', async () => {
    const { root } = writeTokenProject();
    const base = { ...(await openTestIndex(root)), maxFileBytes: 1000 };
    const code = 'def trend(xs):\n    # least squares slope\n    return fit(xs)\n';
    writeFileSync(path.join(root, 'src/rain.ipynb'), testNotebook({ code, imageChars: 5000 }));
    expect((await planFileJobs(base)).paths).toContain('src/rain.ipynb');
    expect(await indexFile({ ...base, path: 'src/rain.ipynb' })).toEqual({ path: 'src/rain.ipynb', outcome: 'indexed', chunks: 2 });
    expect((await base.store.chunksOfFile('src/rain.ipynb')).find((c) => c.symbol === 'trend')).toMatchObject({ startLine: 27, endLine: 29 });
    writeFileSync(path.join(root, 'src/rain.ipynb'), testNotebook({ code, imageChars: 17_000 }));
    expect(await indexFile({ ...base, path: 'src/rain.ipynb' })).toEqual({ path: 'src/rain.ipynb', outcome: 'deleted', chunks: 0 });
    expect(await base.store.getFile('src/rain.ipynb')).toBeUndefined();
    await base.store.close();
  });
});

/** Resolves once Date.now() is past `ms`. */
async function after(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('indexFile and the read time of an entry (FileRecord.indexedAt)', () => {
  it('stamps the time of its read: a save while the file is embedded stays newer than the entry, and the next job indexes it', async () => {
    const { root } = writeTokenProject();
    const base = await openTestIndex(root);
    const file = path.join(root, 'src/plain.ts');
    const held = createHeldEmbedder();
    const job = indexFile({ ...base, embedder: held.embedder, path: 'src/plain.ts' });
    const embedding = await held.reached;
    writeFileSync(file, 'export function subtract(a: number, b: number): number {\n  return a - b;\n}\n');
    utimesSync(file, (embedding + 1) / 1000, (embedding + 1) / 1000);
    await after(embedding + 1);
    held.release();
    expect(await job).toEqual({ path: 'src/plain.ts', outcome: 'indexed', chunks: 1 });
    const record = (await base.store.getFile('src/plain.ts'))!;
    expect(record.indexedAt).toBeLessThanOrEqual(embedding);
    expect(statSync(file).mtimeMs).toBeGreaterThan(record.indexedAt);
    expect(await storedText(base.store, 'src/plain.ts')).toContain('a + b');

    expect(await indexFile({ ...base, path: 'src/plain.ts' })).toEqual({ path: 'src/plain.ts', outcome: 'indexed', chunks: 1 });
    expect(await storedText(base.store, 'src/plain.ts')).toContain('a - b');
    expect(statSync(file).mtimeMs).toBeLessThanOrEqual((await base.store.getFile('src/plain.ts'))!.indexedAt);
    await base.store.close();
  });

  it('an unchanged file saved since its entry was read: unchanged, no store write, and the entry takes this read time', async () => {
    const { root } = writeTokenProject();
    const base = await openTestIndex(root);
    await indexProject(base);
    const before = (await base.store.getFile('src/plain.ts'))!;
    const touched = before.indexedAt + 5;
    await after(touched);
    utimesSync(path.join(root, 'src/plain.ts'), touched / 1000, touched / 1000);
    const writeFile = vi.spyOn(base.store, 'writeFile');
    const started = Date.now();
    expect(await indexFile({ ...base, path: 'src/plain.ts' })).toEqual({ path: 'src/plain.ts', outcome: 'unchanged', chunks: 1 });
    expect(writeFile).not.toHaveBeenCalled();
    const restamped = (await base.store.getFile('src/plain.ts'))!;
    expect(restamped).toEqual({ ...before, indexedAt: restamped.indexedAt });
    expect(restamped.indexedAt).toBeGreaterThanOrEqual(started);
    // Not saved since: the entry keeps its stamp.
    expect(await indexFile({ ...base, path: 'src/plain.ts' })).toEqual({ path: 'src/plain.ts', outcome: 'unchanged', chunks: 1 });
    expect((await base.store.getFile('src/plain.ts'))!.indexedAt).toBe(restamped.indexedAt);
    await base.store.close();
  });
});

describe('indexFile and the project ignore rules', () => {
  it('a file a new .monoragignore line leaves out is deleted from the index by its job, as the walk drops it; without a filter it stays', async () => {
    const { root } = writeTokenProject();
    const base = await openTestIndex(root);
    await indexProject({ ...base, redactSecrets: false });
    expect(await base.store.getFile('src/plain.ts')).toBeDefined();
    writeFileSync(path.join(root, '.monoragignore'), 'src/plain.ts\n');
    // The job a worker without the rules would run: the file exists and is unchanged, so it stays.
    expect(await indexFile({ ...base, path: 'src/plain.ts', redactSecrets: false })).toMatchObject({ outcome: 'unchanged' });
    const filter = createIgnoreFilter({ root });
    expect(await indexFile({ ...base, path: 'src/plain.ts', redactSecrets: false, filter })).toEqual({ path: 'src/plain.ts', outcome: 'deleted', chunks: 0 });
    expect(await base.store.getFile('src/plain.ts')).toBeUndefined();
    expect(await base.store.chunksOfFile('src/plain.ts')).toEqual([]);
    // A file the rules keep is indexed as before.
    expect(await indexFile({ ...base, path: 'src/deploy.ts', redactSecrets: false, filter })).toMatchObject({ outcome: 'unchanged' });
    await base.store.close();
  });
});
