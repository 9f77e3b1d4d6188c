import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand, REPO_ROOT, runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { git, makeGitRepo, tokenFile } from './git-repo.js';

interface Freshness { stale: boolean; pendingChanges: number; warning: string | null }

let embedder: FakeEmbeddingHttp;
let env: Record<string, string>;
beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
  env = { EMBEDDING_URL: embedder.url };
});
afterAll(async () => {
  await embedder?.stop();
});

async function status(repo: string): Promise<Freshness> {
  const run = await runCli(['status', '--project', repo, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Freshness;
}

describe('the CLI freshness flag', () => {
  it('calls the index stale when an untracked, non-ignored file is new since the last run', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA'), '.gitignore': 'build/\n' });
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0, warning: null });

    // Ignored files (by .gitignore, by monorag's defaults) do not make it stale.
    writeFileSync(path.join(repo, '.env'), 'TOKEN=x\n');
    const ignoredDir = path.join(repo, 'build');
    mkdirSync(ignoredDir);
    writeFileSync(path.join(ignoredDir, 'out.js'), 'x');
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });

    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('tokB'));
    expect(await status(repo)).toMatchObject({
      stale: true,
      pendingChanges: 1,
      unqueuedChanges: 1,
      warning:
        'Results may be out of date: 1 changed file(s) in the work tree are not queued for indexing (`monorag index` indexes them now; `monorag hooks install` has git hooks queue them on every commit).',
    });
    const search = await runCli(['search', 'tokA', '--lexical', '--json', '--project', repo], env);
    expect((JSON.parse(search.stdout) as { index: Freshness }).index).toMatchObject({ stale: true, pendingChanges: 1 });

    const again = await runCli(['index', repo, '--quiet'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
  }, 60_000);

  it('calls it stale after an uncommitted edit of a tracked file, in --json and in the plain status', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA') });
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    const fresh = await runCli(['status', '--project', repo], env);
    expect(fresh.stdout).toContain('Fresh: yes\n');
    await new Promise((r) => setTimeout(r, 20)); // the edit's mtime must pass the run's time
    writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('tokEdited'));
    expect(await status(repo)).toMatchObject({ stale: true, pendingChanges: 1 });
    const plain = await runCli(['status', '--project', repo], env);
    expect(plain.stdout).toContain(
      'Fresh: no. Results may be out of date: 1 changed file(s) in the work tree are not queued for indexing (`monorag index` indexes them now; `monorag hooks install` has git hooks queue them on every commit).\n',
    );
    const again = await runCli(['index', repo, '--quiet'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
  }, 60_000);

  it('calls it stale after an uncommitted deletion of an indexed file, until the next run removes it', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA'), 'src/b.ts': tokenFile('tokB') });
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    rmSync(path.join(repo, 'src/b.ts'));
    expect(await status(repo)).toMatchObject({ stale: true, pendingChanges: 1 });
    const again = await runCli(['index', repo, '--quiet'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
  }, 60_000);

  it('calls it stale after `git checkout` or `git stash` puts back files whose edits the index holds, until the next run', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA'), 'src/b.ts': tokenFile('tokB') });
    writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('tokZanzibar'));
    rmSync(path.join(repo, 'src/b.ts'));
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
    git(repo, 'checkout', '--', 'src/a.ts', 'src/b.ts');
    expect(await status(repo)).toMatchObject({ stale: true, pendingChanges: 2 });
    const search = await runCli(['search', 'tokZanzibar', '--lexical', '--json', '--project', repo], env);
    expect((JSON.parse(search.stdout) as { index: Freshness }).index).toMatchObject({ stale: true, pendingChanges: 2 });
    expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
    // The same through `git stash`: an edit indexed, then stashed away.
    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('tokStashed'));
    expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
    git(repo, 'stash', '-q');
    expect(await status(repo)).toMatchObject({ stale: true, pendingChanges: 1 });
  }, 90_000);

  it('calls it stale after the deletion of an indexed untracked file (git lists none), until the next run removes it', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA') });
    writeFileSync(path.join(repo, 'src/scratch.ts'), tokenFile('tokScratch'));
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
    rmSync(path.join(repo, 'src/scratch.ts'));
    expect(await status(repo)).toMatchObject({ stale: true, pendingChanges: 1 });
    const again = await runCli(['index', repo, '--quiet'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
    const search = await runCli(['search', 'tokScratch', '--lexical', '--json', '--project', repo], env);
    expect((JSON.parse(search.stdout) as { results: { path: string }[] }).results.map((hit) => hit.path)).not.toContain('src/scratch.ts');
  }, 60_000);

  it('stays fresh when HEAD moves only to content the index holds: an amended message, a commit of indexed edits (a trial: stale after --amend)', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA'), 'src/b.ts': tokenFile('tokB') });
    expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
    git(repo, 'commit', '-q', '--amend', '-m', 'reworded');
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0, warning: null });
    writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('tokEdited'));
    expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
    git(repo, 'commit', '-q', '-am', 'edit a, indexed before the commit');
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0, warning: null });
    // A commit of content the index has not read: committed, git lists it as no work-tree change, so HEAD is the reason.
    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('tokB2'));
    git(repo, 'commit', '-q', '-am', 'edit b');
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const stale = await status(repo);
    expect(stale).toMatchObject({ stale: true, pendingChanges: 0 });
    expect(stale.warning).toMatch(new RegExp(`^Results may be out of date: HEAD is ${head.slice(0, 12)} but the index reflects [0-9a-f]{12}\\.$`));
  }, 60_000);

  it('status takes the project as [path], as index does, or as --project, not both (a trial: "too many arguments")', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA') });
    expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
    const byPath = await runCli(['status', repo, '--json'], env);
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(JSON.parse(byPath.stdout)).toEqual(await status(repo));
    const both = await runCli(['status', repo, '--project', repo], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(`monorag: Both [path] (${repo}) and --project (${repo}) name the project; give it once, either way.\n`);
  }, 60_000);

  it('calls it stale after a copy that keeps an old modification time (cp -p, tar x), and fresh after the run that reads it (trial)', async () => {
    const repo = makeGitRepo({ 'src/parse.ts': tokenFile('tokParse') });
    expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(path.join(repo, 'src/parse.ts'), tokenFile('tokWalrus'));
    utimesSync(path.join(repo, 'src/parse.ts'), new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    expect(await status(repo)).toMatchObject({ stale: true, pendingChanges: 1 });
    expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
    // A chmod (a status change, same text) counts once, until a run reads the file and finds its text unchanged.
    await new Promise((r) => setTimeout(r, 20));
    chmodSync(path.join(repo, 'src/parse.ts'), 0o600);
    expect(await status(repo)).toMatchObject({ stale: true, pendingChanges: 1 });
    expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
  }, 60_000);

  it('outside git, calls it stale after a new file, an edit and a deletion since the last run (a trial: a plain directory never was)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-nogit-fresh-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src/a.ts'), tokenFile('tokA'));
    writeFileSync(path.join(dir, 'src/b.ts'), tokenFile('tokB'));
    try {
      const indexed = await runCli(['index', dir, '--quiet'], env);
      expect(indexed.code, indexed.stderr).toBe(0);
      expect(await status(dir)).toMatchObject({ stale: false, pendingChanges: 0, warning: null });
      await new Promise((r) => setTimeout(r, 20)); // the edit's mtime must pass the run's time
      writeFileSync(path.join(dir, 'src/a.ts'), tokenFile('tokEdited'));
      writeFileSync(path.join(dir, 'src/c.ts'), tokenFile('tokC'));
      rmSync(path.join(dir, 'src/b.ts'));
      expect(await status(dir)).toMatchObject({
        stale: true,
        pendingChanges: 3,
        warning: 'Results may be out of date: 3 changed file(s) in the work tree are not indexed yet (`monorag index` indexes them).',
      });
      const again = await runCli(['index', dir, '--quiet'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(await status(dir)).toMatchObject({ stale: false, pendingChanges: 0, warning: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('monorag serve: freshness from the start', () => {
  it('an up-to-date index has no pending change right after start: the catch-up run is an update in progress', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokA'), 'src/b.ts': tokenFile('tokB') });
    const indexed = await runCli(['index', repo, '--quiet'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(await status(repo)).toMatchObject({ stale: false, pendingChanges: 0 });
    const { command, args } = cliCommand(['serve', repo]);
    const client = new Client({ name: 'monorag-freshness-start', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command, args, cwd: REPO_ROOT, stderr: 'pipe', env: { ...(process.env as Record<string, string>), ...env, MONORAG_LOG_LEVEL: 'warn' } }));
    try {
      const seen: Array<Freshness & { indexing: boolean }> = [];
      let lastRun: Record<string, unknown> | null = null;
      // From `initialize` on, until the catch-up run has finished: before, the first reads said "1 changed path(s) are waiting".
      for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
        const result = (await client.callTool({ name: 'index_status', arguments: {} })) as unknown as { structuredContent: { index: Freshness & { indexing: boolean }; lastRun: Record<string, unknown> | null } };
        seen.push(result.structuredContent.index);
        lastRun = result.structuredContent.lastRun;
        if (lastRun !== null && !result.structuredContent.index.stale) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(lastRun).toMatchObject({ mode: 'full', added: 0, changed: 0, deleted: 0 });
      expect(seen.map((index) => index.pendingChanges)).toEqual(seen.map(() => 0));
      for (const index of seen.filter((i) => i.stale)) expect(index).toMatchObject({ indexing: true, warning: 'Results may be out of date: an index update is in progress.' });
      expect(seen.at(-1)).toMatchObject({ stale: false, indexing: false, warning: null });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('results read before the catch-up run removed files deleted or renamed while nothing watched are never labelled fresh', async () => {
    // `git rev-parse` slowed to 80 ms, as on a loaded machine: the freshness reads HEAD after each search. Before, it took
    // the watcher's state after that read, by which time the catch-up run could have ended: every start below then gave
    // a result holding py/README.md labelled `stale: false, indexing: false`.
    const slowGit = mkdtempSync(path.join(tmpdir(), 'monorag-slow-git-'));
    writeFileSync(path.join(slowGit, 'git'), '#!/bin/sh\ncase " $* " in *" rev-parse "*) sleep 0.08 ;; esac\nexec env PATH="$MONORAG_REAL_PATH" git "$@"\n');
    chmodSync(path.join(slowGit, 'git'), 0o755);
    const served = { ...(process.env as Record<string, string>), ...env, MONORAG_LOG_LEVEL: 'warn', MONORAG_REAL_PATH: process.env.PATH ?? '', PATH: `${slowGit}:${process.env.PATH ?? ''}` };
    let heldStale = 0;
    try {
      for (let start = 0; start < 3; start++) {
        const repo = makeGitRepo({
          'packages/api/README.md': '# API\n\nThe walrusapi readme.\n', 'py/README.md': '# Py\n\nThe walruspy readme.\n', 'src/a.ts': tokenFile('tokA'),
        });
        expect((await runCli(['index', repo, '--quiet'], env)).code).toBe(0);
        git(repo, 'mv', 'packages/api/README.md', 'packages/api/ABOUT.md');
        rmSync(path.join(repo, 'py/README.md'));
        const { command, args } = cliCommand(['serve', repo]);
        const client = new Client({ name: 'monorag-freshness-deleted', version: '0.0.0' });
        await client.connect(new StdioClientTransport({ command, args, cwd: REPO_ROOT, stderr: 'pipe', env: served }));
        try {
          for (const deadline = Date.now() + 20_000; ;) {
            const result = (await client.callTool({ name: 'search_code', arguments: { query: 'walrusapi walruspy readme', limit: 5 } })) as unknown as {
              structuredContent: { results: Array<{ path: string }>; index: Freshness & { indexing: boolean } };
            };
            const { results, index } = result.structuredContent;
            const held = results.map((hit) => hit.path).filter((p) => p === 'py/README.md' || p === 'packages/api/README.md');
            if (held.length > 0) {
              expect(index, `start ${start}: ${held.join(', ')}`).toMatchObject({ stale: true });
              heldStale++;
            } else if (!index.stale) break;
            expect(Date.now()).toBeLessThan(deadline);
          }
        } finally {
          await client.close();
        }
      }
    } finally {
      rmSync(slowGit, { recursive: true, force: true });
    }
    // The searches did reach the index before the catch-up run removed the files.
    expect(heldStale).toBeGreaterThan(0);
  }, 120_000);
});
