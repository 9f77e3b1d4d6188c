import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand, REPO_ROOT, runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo, tokenFile, writeFiles } from './git-repo.js';

interface Freshness { stale: boolean; pendingChanges: number }
interface Skip { path: string; reason: string; detail?: string }

let embedder: FakeEmbeddingHttp;
let env: Record<string, string>;
let client: Client | undefined;
beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
  env = { EMBEDDING_URL: embedder.url };
});
afterAll(async () => {
  await client?.close();
  await embedder?.stop();
});

async function json<T>(args: string[]): Promise<T> {
  const run = await runCli([...args, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

const searchPaths = async (repo: string, query: string, mode: string[] = ['--lexical']): Promise<string[]> =>
  (await json<{ results: Array<{ path: string }> }>(['search', query, ...mode, '--project', repo])).results.map((r) => r.path);

const REAL_FILES = ['py/pricing.py', 'src/retry.ts', 'src/util/headers.ts'];

/** A git repo with src/retry.ts and, untracked, a loop of links, a link to retry.ts and editor and merge leftovers. */
function trialRepo(): string {
  const repo = makeGitRepo({ 'src/retry.ts': tokenFile('tokRetry'), 'py/pricing.py': 'tokPricing = 1\n', 'src/util/headers.ts': tokenFile('tokHeaders') });
  symlinkSync('loop-b', path.join(repo, 'src/loop-a'));
  symlinkSync('loop-a', path.join(repo, 'src/loop-b'));
  symlinkSync('retry.ts', path.join(repo, 'src/retry-link.ts'));
  symlinkSync('src/util', path.join(repo, 'util'));
  writeFiles(repo, {
    'src/retry.ts~': tokenFile('tokRetry'),
    'py/#pricing.py#': 'tokPricing = 2\n',
    'py/.#pricing.py': 'tokPricing = 3\n',
    'src/.retry.ts.swp': 'tokRetry',
    'src/util/headers.ts.orig': tokenFile('tokHeaders'),
    'src/util/headers.ts.rej': tokenFile('tokHeaders'),
  });
  return repo;
}

describe('links and editor leftovers in the work tree', () => {
  it('index each file once under its real path, skip the leftovers, and a loop of links fails no status or search', async () => {
    const repo = trialRepo();
    const report = await json<{ files: number; skipped: Skip[] }>(['index', repo]);
    expect(report.files).toBe(3);
    expect([...report.skipped].sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'src/loop-a', reason: 'symlink-loop', detail: 'links to loop-b, a chain of links that leads back to itself' },
      { path: 'src/loop-b', reason: 'symlink-loop', detail: 'links to loop-a, a chain of links that leads back to itself' },
      { path: 'src/retry-link.ts', reason: 'symlink-inside', detail: 'links to src/retry.ts' },
      { path: 'util', reason: 'symlink-inside', detail: 'links to src/util/' },
    ]);
    const text = await runCli(['index', repo], env);
    expect(text.stdout).toContain('  skipped: src/retry-link.ts (symlink-inside: links to src/retry.ts)\n');
    expect(text.stdout).toContain('  skipped: src/loop-a (symlink-loop: links to loop-b, a chain of links that leads back to itself)\n');

    expect(await json<Freshness>(['status', '--project', repo])).toMatchObject({ stale: false, pendingChanges: 0 });
    // Each file found once, under its real path (the tokens share words, so the other files rank below).
    for (const [query, mode, top] of [
      ['tokRetry', ['--lexical'], 'src/retry.ts'],
      ['tokRetry', [], 'src/retry.ts'],
      ['tokPricing', ['--lexical'], 'py/pricing.py'],
      ['tokHeaders', ['--lexical'], 'src/util/headers.ts'],
    ] as const) {
      const paths = await searchPaths(repo, query, [...mode]);
      expect(paths[0]).toBe(top);
      expect([...paths].sort()).toEqual(REAL_FILES.filter((f) => paths.includes(f)));
    }

    // An edit of the link's target is pending, and the next run brings the index back to fresh.
    await new Promise((r) => setTimeout(r, 20)); // the edit's mtime must pass the run's time
    writeFileSync(path.join(repo, 'src/retry.ts'), tokenFile('tokRetryEdited'));
    expect(await json<Freshness>(['status', '--project', repo])).toMatchObject({ stale: true, pendingChanges: 1 });
    await json(['index', repo]);
    expect(await json<Freshness>(['status', '--project', repo])).toMatchObject({ stale: false, pendingChanges: 0 });
    expect((await searchPaths(repo, 'tokRetryEdited'))[0]).toBe('src/retry.ts');
  }, 120_000);

  it('serve --no-watch answers index_status and search_code beside a loop of links', async () => {
    const repo = makeGitRepo({ 'src/retry.ts': tokenFile('tokRetry') });
    await json(['index', repo]);
    symlinkSync('loop-b', path.join(repo, 'src/loop-a'));
    symlinkSync('loop-a', path.join(repo, 'src/loop-b'));
    const { command, args } = cliCommand(['serve', repo, '--no-watch']);
    client = new Client({ name: 'monorag-symlinks', version: '0.0.0' });
    await client.connect(new StdioClientTransport({
      command, args, cwd: REPO_ROOT, stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), ...env, MONORAG_LOG_LEVEL: 'warn' },
    }));
    const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const result = (await client!.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent: Record<string, unknown> };
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      return result.structuredContent;
    };
    expect((await call('index_status', {})).index).toMatchObject({ stale: false, pendingChanges: 0 });
    const found = (await call('search_code', { query: 'tokRetry', limit: 5 })) as { results: Array<{ path: string }>; index: Freshness };
    expect(found.results.map((r) => r.path)).toEqual(['src/retry.ts']);
    expect(found.index).toMatchObject({ stale: false });
  }, 60_000);
});
