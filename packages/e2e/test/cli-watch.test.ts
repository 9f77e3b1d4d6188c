import type { ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '@monorag/store';
import { killGroup, runCli, startCli, until, type StartedCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo, tokenFile } from './git-repo.js';

let embedding: FakeEmbeddingHttp;
/** A slow model: each /embed request waits 400 ms, so a run over many files lasts. */
let slowEmbedding: FakeEmbeddingHttp;
const spawned: ChildProcess[] = [];
const repos: string[] = [];

beforeAll(async () => {
  embedding = await startFakeEmbeddingHttp();
  slowEmbedding = await startFakeEmbeddingHttp('fake-hash-embedder', { delayMs: 400 });
});

afterAll(async () => {
  for (const child of spawned) killGroup(child, 'SIGKILL');
  await embedding?.stop();
  await slowEmbedding?.stop();
  for (const repo of repos) rmSync(repo, { recursive: true, force: true });
});

/** Starts `monorag watch <args>` in its own process group, as a terminal runs it (a Ctrl-C signals the whole group). */
function startWatch(args: string[], env: Record<string, string>): StartedCli {
  return startCli(['watch', ...args], env, spawned);
}

/** The paths in the project's index, and the text of one file's chunks (read while the watcher runs: SQLite WAL allows it). */
async function readIndex(repo: string, file?: string): Promise<{ paths: string[]; text: string }> {
  const store = await openSqliteStore({ file: path.join(repo, '.monorag', 'index.sqlite') });
  try {
    const paths = (await store.listFiles()).map((f) => f.path).sort();
    const text = file ? (await store.chunksOfFile(file)).map((c) => c.content).join('\n') : '';
    return { paths, text };
  } finally {
    await store.close();
  }
}

/**
 * Ctrl-C in a terminal: SIGINT to the whole group (tsx and the CLI), then, 50 ms later, the duplicate
 * that pnpm or tsx relays to the CLI (unless the CLI has exited by then).
 */
async function ctrlC(watch: StartedCli, cliPid: number): Promise<void> {
  process.kill(-watch.child.pid!, 'SIGINT');
  await new Promise((resolve) => setTimeout(resolve, 50));
  try {
    process.kill(cliPid, 'SIGINT');
  } catch (error) {
    // ESRCH: the CLI exited at the first signal, which is fine.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The pid of the CLI process itself, where pnpm or tsx would relay a terminal's Ctrl-C: the spawned node process (see `cliCommand`). */
function cliPid(watch: StartedCli): number {
  return watch.child.pid!;
}

describe('monorag watch', () => {
  it('indexes an edit within the longest wait while another file is rewritten faster than the debounce', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken'), 'notes.txt': 'notes 0\n' });
    repos.push(repo);
    const watch = startWatch([repo, '--debounce-ms', '500'], { EMBEDDING_URL: embedding.url });
    await until(() => /full update: 2 added/.test(watch.stdout()) && watch.stdout().includes('Watching'), 'the first run');
    // A writer that never pauses for the 500 ms debounce (as `while :; do echo x > notes.txt; sleep 0.05; done`).
    let n = 0;
    const writer = setInterval(() => writeFileSync(path.join(repo, 'notes.txt'), `notes ${++n}\n`), 50);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('gammaToken'));
      // The default longest wait for a 500 ms debounce is 5 s; the writer keeps writing all along.
      await until(async () => (await readIndex(repo, 'src/a.ts')).text.includes('gammaToken'), 'the edit of src/a.ts in the index', 30_000);
      expect(n).toBeGreaterThan(0);
    } finally {
      clearInterval(writer);
    }
    await ctrlC(watch, cliPid(watch));
    expect(await watch.exited).toBe(0);
  }, 90_000);

  it('re-decides the index on an edit of .git/info/exclude, lists skipped files and why, and stops cleanly on Ctrl-C', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken'), 'docs/guide.md': '# Guide\n\nHow to use it.\n' });
    repos.push(repo);
    const exclude = path.join(repo, '.git', 'info', 'exclude');
    const watch = startWatch([repo], { EMBEDDING_URL: embedding.url, MONORAG_MAX_FILE_BYTES: '2000' });
    await until(() => /full update: 3 added/.test(watch.stdout()) && watch.stdout().includes('Watching'), 'the first run');
    // .git/info/exclude: adding a pattern removes the file from the index (a full run), removing it brings it back.
    const before = readFileSync(exclude, 'utf8');
    expect(before).toContain('/.monorag/');
    appendFileSync(exclude, 'docs/\n');
    await until(() => /full update: 0 added, 0 changed, 1 deleted/.test(watch.stdout()), 'the run after excluding docs/');
    expect((await readIndex(repo)).paths).toEqual(['src/a.ts', 'src/b.ts']);
    writeFileSync(exclude, before);
    await until(() => /full update: 1 added, 0 changed, 0 deleted/.test(watch.stdout()), 'the run after including docs/ again');
    expect((await readIndex(repo)).paths).toEqual(['docs/guide.md', 'src/a.ts', 'src/b.ts']);

    // Skipped files are named with the reason; a file grown past the size limit is said to be removed.
    writeFileSync(path.join(repo, 'src/blob.txt'), Buffer.from('text\0with\0NUL bytes\n'));
    await until(() => watch.stdout().includes('  skipped: src/blob.txt (binary)\n'), 'the skipped binary file');
    const big = path.join(repo, 'src/.b.ts.tmp');
    writeFileSync(big, `${tokenFile('betaToken')}${'// padding line of the file\n'.repeat(100)}`);
    renameSync(big, path.join(repo, 'src/b.ts'));
    await until(() => watch.stdout().includes('  skipped: src/b.ts (too-large: 2862 bytes > 2000; removed from the index)\n'), 'the file grown past the limit');
    expect(watch.stdout()).toMatch(/ paths update: 0 added, 0 changed, 1 deleted, 1 skipped, 0 embedded, \d+ ms\n {2}skipped: src\/b\.ts \(too-large: 2862 bytes > 2000; removed from the index\)\n/);
    expect((await readIndex(repo)).paths).toEqual(['docs/guide.md', 'src/a.ts']);

    // Ctrl-C while idle: says so, exits 0, no lock left behind, even with the relayed duplicate SIGINT.
    await ctrlC(watch, cliPid(watch));
    expect(await watch.exited).toBe(0);
    expect(watch.stderr()).toContain('monorag: stopping the watch (SIGINT); the index is up to date.\n');
    expect(existsSync(path.join(repo, '.monorag', 'index.lock'))).toBe(false);
  }, 120_000);

  it('files it handled and skipped (binary, too large) leave the index fresh for `status`; a later change to one is pending', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken'), 'assets/logo.png': '\x89PNG\r\n\x1a\n' });
    repos.push(repo);
    const env = { EMBEDDING_URL: embedding.url, MONORAG_MAX_FILE_BYTES: '2000' };
    const status = async (): Promise<{ stale: boolean; pendingChanges: number; unqueuedChanges: number; warning: string | null }> => {
      const run = await runCli(['status', '--project', repo, '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { stale: boolean; pendingChanges: number; unqueuedChanges: number; warning: string | null };
    };
    const watch = startWatch([repo], env);
    await until(() => /full update: 1 added/.test(watch.stdout()) && watch.stdout().includes('Watching'), 'the first run');
    mkdirSync(path.join(repo, 'edge'));
    writeFileSync(path.join(repo, 'edge/bin3.dat'), 'x\x00y');
    await until(() => watch.stdout().includes('  skipped: edge/bin3.dat (binary)\n'), 'the skipped binary file');
    appendFileSync(path.join(repo, 'assets/logo.png'), 'more bytes');
    await until(() => watch.stdout().includes('  skipped: assets/logo.png (binary)\n'), 'the grown tracked image');
    writeFileSync(path.join(repo, 'big.txt'), 'word '.repeat(1000));
    await until(() => watch.stdout().includes('  skipped: big.txt (too-large: 5000 bytes > 2000)\n'), 'the new file over the limit');
    // Before, each of the three counted as a change nothing had queued, until a full `monorag index`.
    expect(await status()).toMatchObject({ stale: false, pendingChanges: 0, unqueuedChanges: 0, warning: null });
    await ctrlC(watch, cliPid(watch));
    expect(await watch.exited).toBe(0);
    // With nothing watching, a change after the skip is pending again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(path.join(repo, 'edge/bin3.dat'), 'x\x00yz');
    expect(await status()).toMatchObject({ stale: true, pendingChanges: 1, unqueuedChanges: 1 });
  }, 90_000);

  it('`status` in another process says that the watcher picks up a save it has not indexed yet, not to run a git hook or `monorag index`', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken') });
    repos.push(repo);
    const env = { EMBEDDING_URL: embedding.url };
    const status = async (): Promise<{ stale: boolean; unqueuedChanges: number; warning: string | null }> => {
      const run = await runCli(['status', '--project', repo, '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { stale: boolean; unqueuedChanges: number; warning: string | null };
    };
    // A save waits 5 s for quiet before its run.
    const watch = startWatch([repo, '--debounce-ms', '5000'], env);
    await until(() => /full update: 1 added/.test(watch.stdout()) && watch.stdout().includes('Watching'), 'the first run');
    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('betaToken'));
    expect(await status()).toMatchObject({
      stale: true,
      unqueuedChanges: 1,
      warning: `Results may be out of date: 1 changed file(s) in the work tree are not indexed yet (the file watcher of process ${cliPid(watch)} picks them up as it sees them).`,
    });
    await until(() => /paths update: 1 added/.test(watch.stdout()), 'the run of the save');
    expect(await status()).toMatchObject({ stale: false, warning: null });
    await ctrlC(watch, cliPid(watch));
    expect(await watch.exited).toBe(0);
    // Nothing watches any more: the advice is a git hook or `monorag index` again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(path.join(repo, 'src/c.ts'), tokenFile('gammaToken'));
    expect((await status()).warning).toBe(
      'Results may be out of date: 1 changed file(s) in the work tree are not queued for indexing (`monorag index` indexes them now; `monorag hooks install` has git hooks queue them on every commit).',
    );
  }, 90_000);

  it('a save made during a long run is searchable within seconds: the run is interrupted and the newest file goes first', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken') });
    repos.push(repo);
    const watch = startWatch([repo], { EMBEDDING_URL: slowEmbedding.url });
    await until(() => /full update: 1 added/.test(watch.stdout()) && watch.stdout().includes('Watching'), 'the first run');
    // About 1,000 line windows: 32 requests of 32 texts at 400 ms each, about 13 s of embedding.
    const lines = Array.from({ length: 12_000 }, (_, i) => `entry ${i} records value${i} beside marker${i % 97} and label${i % 89}\n`);
    writeFileSync(path.join(repo, 'docs-big.txt'), lines.join(''));
    await until(() => slowEmbedding.texts() > 64, 'the long run to be embedding');
    const saved = Date.now();
    writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('gammaToken'));
    await until(async () => (await readIndex(repo, 'src/a.ts')).text.includes('gammaToken'), 'the save in the index', 30_000);
    const waited = Date.now() - saved;
    // Written before the long file, whose embedding still had seconds to go.
    expect((await readIndex(repo)).paths).toEqual(['src/a.ts']);
    expect(waited).toBeLessThan(8_000);
    await until(async () => (await readIndex(repo)).paths.includes('docs-big.txt'), 'the long file, in the end', 60_000);
    await ctrlC(watch, cliPid(watch));
    expect(await watch.exited).toBe(0);
  }, 120_000);

  it('on Ctrl-C during a run (the SIGINT relayed twice) says so, stops the run, frees the lock and exits 130', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`src/m${i}.ts`] = tokenFile(`module${i}Token`);
    const repo = makeGitRepo(files);
    repos.push(repo);
    const lockFile = path.join(repo, '.monorag', 'index.lock');
    const watch = startWatch([repo], { EMBEDDING_URL: slowEmbedding.url, MONORAG_EMBED_BATCH_SIZE: '2' });
    // The first run holds the lock; its files are embedded two per 400 ms request, 8 s for all 40.
    await until(() => existsSync(lockFile) && existsSync(path.join(repo, '.monorag', 'index.sqlite')), 'the first run to start');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(cliPid(watch)));
    await ctrlC(watch, cliPid(watch));
    expect(await watch.exited).toBe(130);
    // Before, the relayed SIGINT killed the CLI while it waited for the run: the lock named a dead pid.
    expect(existsSync(lockFile)).toBe(false);
    expect(watch.stderr()).toContain(
      `monorag: interrupted (SIGINT); stopping the watch and the index run in progress. The files indexed so far are kept. Run \`monorag watch ${repo}\` or \`monorag index ${repo}\` again to finish (it skips what is already indexed).\n`,
    );
    // Stopped, not waited for: the run had not indexed every file.
    expect((await readIndex(repo)).paths.length).toBeLessThan(40);
  }, 90_000);
});
