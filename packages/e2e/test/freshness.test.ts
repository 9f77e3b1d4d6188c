import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand, REPO_ROOT, runCli } from './cli.js';
import { startTestEmbeddingServer, type TestEmbeddingServer } from './embedding-server.js';
import { git, makeGitRepo, tokenFile, writeFiles } from './git-repo.js';

interface Hit { path: string; startLine: number; endLine: number }
interface Freshness { files: number; indexedCommit: string | null; headCommit: string | null; pendingChanges: number; indexing: boolean; stale: boolean; warning: string | null }

let embedder: TestEmbeddingServer;
beforeAll(async () => {
  embedder = await startTestEmbeddingServer();
});
afterAll(async () => {
  await embedder?.stop();
});

async function serve(repo: string, extraArgs: string[] = []): Promise<Client> {
  const { command, args } = cliCommand(['serve', repo, ...extraArgs]);
  const transport = new StdioClientTransport({
    command, args, cwd: REPO_ROOT, stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'warn' },
  });
  const client = new Client({ name: 'monorag-freshness', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent: Record<string, unknown> };
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return result.structuredContent;
}

/** Repo-relative paths of the files the index should hold: every non-ignored file of the tree (.git aside). */
function treeFiles(repo: string, dir = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(repo, dir))) {
    const rel = dir ? `${dir}/${name}` : name;
    if (rel === '.git' || rel === '.monorag') continue;
    if (statSync(path.join(repo, rel)).isDirectory()) out.push(...treeFiles(repo, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** The token each file holds (its `export const <token>`), read from disk. */
function tokensOnDisk(repo: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const rel of treeFiles(repo)) {
    const m = /export const (\w+)/.exec(readFileSync(path.join(repo, rel), 'utf8'));
    if (m) map.set(m[1]!, rel);
  }
  return map;
}

/**
 * Waits until the server reports nothing pending and the index at HEAD, then checks that the index
 * matches the tree exactly: the same number of files, each file's token found at its path only, and
 * every token that left the tree (`gone`) found nowhere.
 */
async function expectIndexMatchesTree(client: Client, repo: string, gone: string[] = []): Promise<void> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const { index } = (await call(client, 'index_status')) as { index: Freshness };
    if (!index.stale && index.files === treeFiles(repo).length) break;
    if (Date.now() > deadline) throw new Error(`index still stale: ${JSON.stringify(index)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const [token, rel] of tokensOnDisk(repo)) {
    const { results } = (await call(client, 'search_code', { query: token, limit: 5 })) as { results: Hit[] };
    expect(results.filter((r) => r.path === rel).length, `${token} in ${rel}`).toBe(1);
  }
  for (const token of gone) {
    const { results } = (await call(client, 'search_code', { query: token, limit: 5 })) as { results: Array<Hit & { snippet: string }> };
    expect(results.filter((r) => r.snippet.includes(token)), token).toEqual([]);
  }
}

const STEP_MS = 300_000;

describe('serve --watch keeps the index equal to the tree', () => {
  let repo: string;
  let client: Client;
  afterAll(async () => {
    await client?.close();
  });

  it('builds the missing index on start', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`src/m${i}.ts`] = tokenFile(`tokMain${i}`);
    repo = makeGitRepo(files);
    client = await serve(repo);
    await expectIndexMatchesTree(client, repo);
  }, STEP_MS);

  it('an edit', async () => {
    writeFiles(repo, { 'src/m0.ts': tokenFile('tokEdited0') });
    await expectIndexMatchesTree(client, repo, ['tokMain0']);
  }, STEP_MS);

  it('a rename: the old path is never returned', async () => {
    renameSync(path.join(repo, 'src/m1.ts'), path.join(repo, 'src/renamed1.ts'));
    await expectIndexMatchesTree(client, repo);
    const { results } = (await call(client, 'search_code', { query: 'tokMain1' })) as { results: Hit[] };
    expect(results.map((r) => r.path)).not.toContain('src/m1.ts');
  }, STEP_MS);

  it('a delete, and a truncation to empty', async () => {
    rmSync(path.join(repo, 'src/m2.ts'));
    await expectIndexMatchesTree(client, repo, ['tokMain2']);
    writeFileSync(path.join(repo, 'src/m3.ts'), '');
    await expectIndexMatchesTree(client, repo, ['tokMain3']);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'edits');
    await expectIndexMatchesTree(client, repo);
  }, STEP_MS);

  it('a delete while the watcher is stopped, then a restart', async () => {
    await client.close();
    rmSync(path.join(repo, 'src/m4.ts'));
    client = await serve(repo);
    await expectIndexMatchesTree(client, repo, ['tokMain4']);
  }, STEP_MS);

  it('seven rapid checkouts between two branches that differ in 100 files', async () => {
    git(repo, 'checkout', '-q', '-b', 'other');
    const other: Record<string, string> = {};
    for (let i = 0; i < 100; i++) other[`gen/f${i}.ts`] = tokenFile(`tokOther${i}`);
    writeFiles(repo, other);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'other');
    await expectIndexMatchesTree(client, repo);
    for (let i = 0; i < 7; i++) git(repo, 'checkout', '-q', i % 2 === 0 ? 'main' : 'other');
    expect(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    await expectIndexMatchesTree(client, repo, ['tokOther0', 'tokOther99']);
  }, STEP_MS);

  it('a rebase', async () => {
    writeFiles(repo, { 'src/m0.ts': tokenFile('tokOnMain') });
    git(repo, 'commit', '-q', '-am', 'main moves');
    git(repo, 'checkout', '-q', 'other');
    git(repo, 'rebase', '-q', 'main');
    await expectIndexMatchesTree(client, repo, ['tokEdited0']);
    const { index } = (await call(client, 'index_status')) as { index: Freshness };
    expect(index.indexedCommit).toBe(git(repo, 'rev-parse', 'HEAD').trim());
  }, STEP_MS);

  it('a rebuild by the CLI while serve runs: serve follows the new index file, so later updates reach it', async () => {
    const rebuilt = await runCli(['index', repo, '--rebuild', '--json'], { EMBEDDING_URL: embedder.url });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    writeFiles(repo, { 'src/afterRebuild.ts': tokenFile('tokAfterRebuild') });
    await expectIndexMatchesTree(client, repo);
    // The CLI reads the index file on disk: the server's update must be in it, not in the replaced file.
    const cli = await runCli(['search', 'tokAfterRebuild', '--lexical', '--json', '--project', repo], { EMBEDDING_URL: embedder.url });
    expect(cli.code, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { results: Hit[] }).results.map((r) => r.path)).toContain('src/afterRebuild.ts');
  }, STEP_MS);
});

describe('serve --no-watch follows an index file that another process rebuilt', () => {
  let client: Client | undefined;
  afterAll(async () => {
    await client?.close();
  });

  it('answers from the rebuilt file at the next search, with no run of its own', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('tokBeforeRebuild') });
    const first = await runCli(['index', repo, '--json'], { EMBEDDING_URL: embedder.url });
    expect(first.code, first.stderr).toBe(0);
    client = await serve(repo, ['--no-watch']);
    const before = (await call(client, 'search_code', { query: 'tokBeforeRebuild', limit: 5 })) as { results: Hit[] };
    expect(before.results.map((r) => r.path)).toEqual(['src/a.ts']);
    // Changed while nobody watches; only the CLI's rebuild (a new file renamed over the old) sees it.
    writeFiles(repo, { 'src/b.ts': tokenFile('tokOnlyInRebuild') });
    const rebuilt = await runCli(['index', repo, '--rebuild', '--json'], { EMBEDDING_URL: embedder.url });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const after = (await call(client, 'search_code', { query: 'tokOnlyInRebuild', limit: 5 })) as { results: Hit[] };
    expect(after.results[0]?.path).toBe('src/b.ts');
    const { index } = (await call(client, 'index_status')) as { index: Freshness };
    expect(index.files).toBe(2);
  }, STEP_MS);
});
