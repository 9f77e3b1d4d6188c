import type { ChildProcess } from 'node:child_process';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '@monorag/store';
import { killGroup, runCli, startCli, until } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo, tokenFile } from './git-repo.js';

let embedding: FakeEmbeddingHttp;
const spawned: ChildProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  embedding = await startFakeEmbeddingHttp();
});

afterAll(async () => {
  for (const child of spawned) killGroup(child, 'SIGKILL');
  await embedding?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The paths the project's index holds, or undefined when it has no index file. */
async function indexedPaths(repo: string): Promise<string[] | undefined> {
  const file = path.join(repo, '.monorag', 'index.sqlite');
  if (!existsSync(file)) return undefined;
  const store = await openSqliteStore({ file });
  try {
    return (await store.listFiles()).map((f) => f.path).sort();
  } finally {
    await store.close();
  }
}

/** `monorag status --json` of the project, in another process. */
async function status(repo: string): Promise<{ stale: boolean; files: number }> {
  const run = await runCli(['status', repo, '--json'], { EMBEDDING_URL: embedding.url });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { stale: boolean; files: number };
}

describe('monorag watch when the project folder or its index goes away', () => {
  it('watches again once the project folder is moved away and back, catching up, and builds a deleted index anew (trial: new files never indexed, results fresh)', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken') });
    dirs.push(repo, `${repo}-away`);
    const watch = startCli(['watch', repo], { EMBEDDING_URL: embedding.url }, spawned);
    await until(() => /full update: 1 added/.test(watch.stdout()) && watch.stdout().includes('Watching'), 'the first run');

    renameSync(repo, `${repo}-away`);
    await until(() => watch.stderr().includes('the project folder is gone'), () => `the loss noticed; stderr: ${watch.stderr()}`, 10_000);
    writeFileSync(path.join(`${repo}-away`, 'src/while-away.ts'), tokenFile('awayToken'));
    renameSync(`${repo}-away`, repo);
    await until(() => watch.stderr().includes('the project folder is back'), () => `the return noticed; stderr: ${watch.stderr()}`, 10_000);
    // The catch-up run takes what changed meanwhile; a file saved now is seen by the new watcher.
    await until(async () => (await indexedPaths(repo))?.includes('src/while-away.ts') === true, 'the file written while away', 30_000);
    writeFileSync(path.join(repo, 'src/after.ts'), tokenFile('afterToken'));
    await until(async () => (await indexedPaths(repo))?.includes('src/after.ts') === true, 'the file written after the return', 30_000);
    expect(await status(repo)).toMatchObject({ stale: false, files: 3 });

    // The data directory deleted: the watcher builds the index anew from the whole tree (a run of the next save alone would hold one file).
    rmSync(path.join(repo, '.monorag'), { recursive: true, force: true });
    await until(async () => (await indexedPaths(repo))?.length === 3, () => `the index built anew; stderr: ${watch.stderr()}`, 30_000);
    expect(await indexedPaths(repo)).toEqual(['src/a.ts', 'src/after.ts', 'src/while-away.ts']);
    expect(watch.stderr()).toContain('the index file was deleted; building a new index of the whole tree');
    expect(await status(repo)).toMatchObject({ stale: false, files: 3 });

    // Deleted for good: its rule files go too, and the watcher restart they ask for found no folder (trial: the process died).
    const gone = (): number => watch.stderr().split('the project folder is gone').length - 1;
    rmSync(repo, { recursive: true, force: true });
    await until(() => gone() === 2, () => `the deletion noticed; stderr: ${watch.stderr()}`, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(watch.child.exitCode, watch.stderr()).toBeNull();
    killGroup(watch.child, 'SIGTERM');
    expect(await watch.exited).toBe(0);
  }, 120_000);
});
