import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { indexLockHolder } from '@monorag/indexer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SHELL_COMMAND, runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { git, makeGitRepo, tokenFile } from './git-repo.js';

let embedder: FakeEmbeddingHttp;
beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
});
afterAll(async () => {
  await embedder?.stop();
});

/** Waits until hooks.log has `lines` lines and the background indexer has released the lock; returns the lines. */
async function hookLines(dataDir: string, lines: number): Promise<string[]> {
  const file = path.join(dataDir, 'hooks.log');
  const read = (): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
  for (let i = 0; i < 600; i++) {
    if (read().length >= lines && indexLockHolder(dataDir) === null) return read();
    await sleep(100);
  }
  throw new Error(`hooks.log never had ${lines} line(s): ${read().join(' | ')}`);
}

describe('a git hook whose run finds HEAD moved on by an operation that fires no hook', () => {
  it('indexes what changed between the commit the index reflects and HEAD, so the index it calls fresh holds HEAD (a trial: `reset --hard` after a checkout)', async () => {
    // `other` changes src/b.ts; the index is built on main before the hooks exist.
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('kiwi'), 'src/b.ts': tokenFile('mango') });
    const main = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'checkout', '-q', '-b', 'other');
    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('papaya'));
    git(repo, 'commit', '-q', '-am', 'edit b');
    const other = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'checkout', '-q', 'main');
    const dataDir = path.join(repo, '.monorag');
    const indexed = await runCli(['index', repo, '--quiet'], { EMBEDDING_URL: embedder.url });
    expect(indexed.code, indexed.stderr).toBe(0);
    const installed = await runCli(['hooks', 'install', repo, '--command', CLI_SHELL_COMMAND]);
    expect(installed.code, installed.stderr).toBe(0);

    // post-checkout fires (same commit: no path) and starts its run; `reset --hard` then moves HEAD to
    // `other` and rewrites src/b.ts before that run reads HEAD, and fires no hook.
    execFileSync('sh', ['-c', 'git checkout -q -b y && git reset -q --hard other'], { cwd: repo, env: { ...process.env, EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'warn' } });
    const lines = await hookLines(dataDir, 1);
    expect(lines.map((line) => line.replace(/^\S+Z /, '').replace(/\d+ ms/, 'N ms'))).toEqual(['post-checkout: 0 path(s) enqueued, indexed in N ms']);

    const status = JSON.parse((await runCli(['status', '--project', repo, '--json'])).stdout);
    expect(status).toMatchObject({ indexedCommit: other, headCommit: other, stale: false, files: 2 });
    expect(main).not.toBe(other);
    const found = await runCli(['search', 'papaya', '--lexical', '--json', '--project', repo], { EMBEDDING_URL: embedder.url });
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).results.map((r: { path: string }) => r.path)).toEqual(['src/b.ts']);
    const gone = await runCli(['search', 'mango', '--lexical', '--json', '--project', repo], { EMBEDDING_URL: embedder.url });
    expect(JSON.parse(gone.stdout).results).toEqual([]);
  }, 120_000);
});
