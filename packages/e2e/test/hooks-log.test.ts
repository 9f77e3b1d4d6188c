import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { enqueuePaths, indexLockHolder, pathQueueLength } from '@monorag/indexer';
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

/** Waits until hooks.log has a line matching `done` and the background indexer has released the lock. */
async function hooksLog(dataDir: string, done: RegExp): Promise<string> {
  const file = path.join(dataDir, 'hooks.log');
  for (let i = 0; i < 600; i++) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (done.test(text) && indexLockHolder(dataDir) === null) return text;
    await sleep(100);
  }
  throw new Error(`hooks.log never matched ${done}: ${existsSync(file) ? readFileSync(file, 'utf8') : '(none)'}`);
}

describe("the git hooks' log", () => {
  it('has one line per hook run (hook, paths enqueued, ms), and the full report with MONORAG_LOG_LEVEL=info', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA'), 'src/b.ts': tokenFile('tokB') });
    const dataDir = path.join(repo, '.monorag');
    const installed = await runCli(['hooks', 'install', repo, '--command', CLI_SHELL_COMMAND]);
    expect(installed.code, installed.stderr).toBe(0);
    // No index yet: the hooks only keep one up to date, and say so (the first commit built a one-file index).
    expect(installed.stderr).toBe(`monorag: note: ${repo} has no index yet, and the hooks only keep one up to date; build it with \`monorag index ${repo}\`.\n`);
    const indexed = await runCli(['index', repo, '--quiet'], { EMBEDDING_URL: embedder.url });
    expect(indexed.code, indexed.stderr).toBe(0);
    expect((await runCli(['hooks', 'install', repo, '--command', CLI_SHELL_COMMAND])).stderr).toBe('');
    /** `git commit` with the environment the hooks (and the indexer they start) inherit. */
    const commit = (message: string, logLevel: string): void => {
      git(repo, 'add', '-A');
      execFileSync('git', ['commit', '-q', '-m', message], { cwd: repo, env: { ...process.env, EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: logLevel } });
    };

    writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('tokA2'));
    writeFileSync(path.join(repo, 'src/c.ts'), tokenFile('tokC'));
    commit('two', 'warn');
    const quiet = await hooksLog(dataDir, /enqueued, indexed in/);
    expect(quiet).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z post-commit: 2 path\(s\) enqueued, indexed in \d+ ms\n$/);

    writeFileSync(path.join(repo, 'src/d.ts'), tokenFile('tokD'));
    commit('three', 'info');
    const verbose = (await hooksLog(dataDir, /index: .*index\.sqlite\n/)).slice(quiet.length);
    expect(verbose).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z post-commit: 1 path\(s\) enqueued, indexed in \d+ ms$/m);
    expect(verbose).toContain(`Indexed ${repo} (given paths only)\n  files: 4 in index (1 added,`);
  }, 120_000);

  it("says how many paths the hook queued, not how many the run drained (left-over queue files are indexed too)", async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA'), 'src/b.ts': tokenFile('tokB') });
    const dataDir = path.join(repo, '.monorag');
    const installed = await runCli(['hooks', 'install', repo, '--command', CLI_SHELL_COMMAND]);
    expect(installed.code, installed.stderr).toBe(0);
    const indexed = await runCli(['index', repo, '--quiet'], { EMBEDDING_URL: embedder.url });
    expect(indexed.code, indexed.stderr).toBe(0);
    // Left in the queue by an earlier producer (a hook whose indexer was killed, say): two paths.
    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('tokB2'));
    enqueuePaths(dataDir, ['src/b.ts', 'src/gone.ts']);
    writeFileSync(path.join(repo, 'src/c.ts'), tokenFile('tokC'));
    git(repo, 'add', 'src/c.ts');
    execFileSync('git', ['commit', '-q', '-m', 'one file'], { cwd: repo, env: { ...process.env, EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'warn' } });
    const log = await hooksLog(dataDir, /enqueued, indexed in/);
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z post-commit: 1 path\(s\) enqueued, indexed in \d+ ms\n$/);
    expect(pathQueueLength(dataDir)).toBe(0);
    const status = await runCli(['status', '--project', repo, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ files: 3 });
  }, 120_000);

  it('a `monorag index` started by hand indexes the paths hooks queued while it ran (the hook logged that it would)', async () => {
    const slow = await startFakeEmbeddingHttp('fake-hash-embedder', { delayMs: 1500 });
    try {
      const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA'), 'src/b.ts': tokenFile('tokB') });
      const dataDir = path.join(repo, '.monorag');
      const run = runCli(['index', repo], { EMBEDDING_URL: slow.url });
      // Past the walk and the queue read: the run's first embedding request is in (answered 1.5 s later).
      for (let i = 0; i < 600 && slow.texts() === 0; i++) await sleep(50);
      expect(indexLockHolder(dataDir)).not.toBeNull();
      // What a post-commit hook does while the lock is held: queue the paths and leave them to this run.
      writeFileSync(path.join(repo, 'src/c.ts'), tokenFile('tokC'));
      enqueuePaths(dataDir, ['src/c.ts']);
      const done = await run;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toMatch(/monorag: git hooks queued 1 path\(s\) during the run; indexed them too \(1 added, 0 changed, 0 deleted, in \d+ ms\)\.\n/);
      expect(pathQueueLength(dataDir)).toBe(0);
      const status = await runCli(['status', '--project', repo, '--json']);
      expect(JSON.parse(status.stdout)).toMatchObject({ files: 3 });
    } finally {
      await slow.stop();
    }
  }, 120_000);
});

