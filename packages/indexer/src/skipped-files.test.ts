import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexProject } from './index-project.js';
import { MAX_SKIPPED_FILES, readSkippedFiles, recordSkippedFiles, SKIPPED_FILES_META } from './skipped-files.js';
import { after, openTestIndex, pendingChanges } from './test-index.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

/** A git work tree under the OS temp directory holding `files` (repo-relative path -> content), all committed. */
function committedRepo(files: Record<string, string | Buffer>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-skipped-')));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env: GIT_ENV, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return root;
}

/** Writes `content` to `rel` and dates it `ms` (ms since the epoch). */
function writeAt(root: string, rel: string, content: string | Buffer, ms: number): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
  utimesSync(path.join(root, rel), ms / 1000, ms / 1000);
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const TEXT = 'export function greet(): string {\n  return "hello walrus";\n}\n';

describe('files an index run leaves out on purpose, and freshness', () => {
  it('a file a run limited to paths (a watcher\'s) left out as binary or too large is not pending; a later change to it is', async () => {
    const root = committedRepo({ 'src/greet.ts': TEXT, 'assets/logo.png': PNG });
    const base = await openTestIndex(root);
    await indexProject(base);
    expect(await pendingChanges(base)).toBe(0);
    const full = Number(await base.store.getMeta('indexedAt'));

    // Binary by content (a NUL byte), binary by extension (a tracked image grown), too large (a new 2 MB text file).
    writeAt(root, 'edge/bin3.dat', 'x\x00y', full + 5);
    appendFileSync(path.join(root, 'assets/logo.png'), 'more bytes');
    utimesSync(path.join(root, 'assets/logo.png'), (full + 5) / 1000, (full + 5) / 1000);
    writeAt(root, 'big.txt', 'word '.repeat(420_000), full + 5);
    await after(full + 10);
    // Only the one a run must read to judge: an image or a file over the size limit is left out unread, so never pending.
    expect(await pendingChanges(base)).toBe(1);

    const report = await indexProject({ ...base, paths: ['edge/bin3.dat', 'assets/logo.png', 'big.txt'] });
    expect(report.skipped.map((s) => `${s.path} ${s.reason}`).sort()).toEqual(['assets/logo.png binary', 'big.txt too-large', 'edge/bin3.dat binary']);
    expect(Number(await base.store.getMeta('indexedAt'))).toBe(full);
    expect(await pendingChanges(base)).toBe(0);

    // A change after the run handled it is pending again, until a run handles it.
    const handled = (await readSkippedFiles(base.store)).get('edge/bin3.dat')!;
    writeAt(root, 'edge/bin3.dat', 'x\x00yz', handled + 5);
    await after(handled + 10);
    expect(await pendingChanges(base)).toBe(1);
    await indexProject({ ...base, paths: ['edge/bin3.dat'] });
    expect(await pendingChanges(base)).toBe(0);
    expect([...(await readSkippedFiles(base.store)).keys()]).toEqual(['assets/logo.png', 'big.txt', 'edge/bin3.dat']);

    // A file no longer left out leaves the record when a run indexes it; a whole-tree run keeps no older entry.
    writeAt(root, 'big.txt', 'small now\n', handled + 20);
    await after(handled + 25);
    expect(await indexProject({ ...base, paths: ['big.txt'] })).toMatchObject({ added: 1 });
    expect([...(await readSkippedFiles(base.store)).keys()]).toEqual(['assets/logo.png', 'edge/bin3.dat']);
    await indexProject(base);
    expect(await readSkippedFiles(base.store)).toEqual(new Map());
    expect(await pendingChanges(base)).toBe(0);
    await base.store.close();
  });

  it('a whole-tree run records a file it left out that was saved after the run started, so it is not pending either', async () => {
    const root = committedRepo({ 'src/greet.ts': TEXT, 'edge/late.dat': 'text for now\n' });
    const base = await openTestIndex(root);
    await indexProject(base);
    let savedAt = 0;
    await indexProject({
      ...base,
      // After the walk, before the files are read: the file turns binary, saved after the run started.
      onProgress: (p) => {
        if (p.phase !== 'scan' || savedAt !== 0) return;
        savedAt = Date.now();
        writeAt(root, 'edge/late.dat', 'x\x00y', savedAt);
        while (Date.now() <= savedAt + 1) {
          // The file's read must come later than its save.
        }
      },
    });
    expect(Number(await base.store.getMeta('indexedAt'))).toBeLessThanOrEqual(savedAt);
    expect(await base.store.getFile('edge/late.dat')).toBeUndefined();
    expect((await readSkippedFiles(base.store)).get('edge/late.dat')).toBeGreaterThan(savedAt);
    expect(await pendingChanges(base)).toBe(0);
    await base.store.close();
  });

  it('a run limited to paths replaces the entries inside them and keeps the others; over the cap the files handled last stay', async () => {
    const meta = new Map<string, string>();
    const store = { getMeta: async (key: string) => meta.get(key), setMeta: async (key: string, value: string) => void meta.set(key, value) };
    await recordSkippedFiles(store, new Map([['a/x.bin', 10], ['b/y.bin', 20]]), undefined);
    await recordSkippedFiles(store, new Map([['a/z.bin', 30]]), ['a']);
    expect(await readSkippedFiles(store)).toEqual(new Map([['a/z.bin', 30], ['b/y.bin', 20]]));
    await recordSkippedFiles(store, new Map(), undefined);
    expect(meta.get(SKIPPED_FILES_META)).toBe('');
    const many = new Map(Array.from({ length: MAX_SKIPPED_FILES + 1 }, (_, i) => [`f${String(i).padStart(5, '0')}.bin`, i] as [string, number]));
    await recordSkippedFiles(store, many, undefined);
    const kept = await readSkippedFiles(store);
    expect(kept.size).toBe(MAX_SKIPPED_FILES);
    expect(kept.has('f00000.bin')).toBe(false);
    meta.set(SKIPPED_FILES_META, '{not json');
    expect(await readSkippedFiles(store)).toEqual(new Map());
  });
});
