import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand, REPO_ROOT, runCli } from './cli.js';
import { startTestEmbeddingServer, type TestEmbeddingServer } from './embedding-server.js';
import { makeFixtureRepo } from './fixture-repo.js';

interface ToolText {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
}

let embedder: TestEmbeddingServer;
let repo: string;
let client: Client;
let stderr = '';

beforeAll(async () => {
  embedder = await startTestEmbeddingServer();
  repo = makeFixtureRepo();
  writeFileSync(path.join(repo, '.env'), 'API_KEY=sk-live-not-for-assistants\n');
  const indexed = await runCli(['index', repo, '--quiet'], { EMBEDDING_URL: embedder.url });
  expect(indexed.code, indexed.stderr).toBe(0);
  const { command, args } = cliCommand(['serve', repo]);
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'info' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d) => (stderr += d));
  client = new Client({ name: 'monorag-e2e', version: '0.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await embedder?.stop();
});

async function call(name: string, args: Record<string, unknown>): Promise<ToolText> {
  return (await client.callTool({ name, arguments: args })) as ToolText;
}

describe('monorag serve over stdio, driven by the SDK client', () => {
  it('lists the search and index tools; only sync_index writes', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_file_context', 'index_status', 'search_code', 'sync_index']);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'sync_index');
  });

  it('finds the right function from a query that shares no identifier with it', async () => {
    const result = await call('search_code', { query: 'how long to wait before retrying a failed request', limit: 3 });
    expect(result.isError).toBeFalsy();
    const results = result.structuredContent!.results as Array<{ path: string; symbol: string; startLine: number; endLine: number }>;
    expect(results[0]).toMatchObject({ path: 'src/backoff.ts', symbol: 'scheduleWithBackoff', startLine: 1, endLine: 8 });
    expect(result.content[0]!.text).toContain('src/backoff.ts:1-8');
    expect(result.structuredContent!.index).toMatchObject({ files: 5 });
  });

  it('has the same result shape as search --json', async () => {
    const cli = await runCli(['search', 'least recently used eviction', '--project', repo, '--json', '--limit', '2'], { EMBEDDING_URL: embedder.url });
    expect(cli.code, cli.stderr).toBe(0);
    const fromCli = JSON.parse(cli.stdout) as { results: unknown[] };
    const fromMcp = await call('search_code', { query: 'least recently used eviction', limit: 2 });
    expect(fromMcp.structuredContent!.results).toEqual(fromCli.results);
  });

  it('returns exactly the lines asked for', async () => {
    const result = await call('get_file_context', { path: 'src/lru.ts', startLine: 7, endLine: 9 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      path: 'src/lru.ts',
      startLine: 7,
      endLine: 9,
      totalLines: 24,
      text: '  get(key: K): V | undefined {\n    const value = this.entries.get(key);\n    if (value !== undefined) {',
      truncated: false,
    });
  });

  it('search_code takes a language alias and an absolute path inside the project', async () => {
    const result = await call('search_code', { query: 'cache entries', language: 'ts', path: path.join(repo, 'src') });
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    const results = result.structuredContent!.results as Array<{ path: string; language: string }>;
    expect(results.map((r) => r.path)).toContain('src/lru.ts');
    expect(results.every((r) => r.language === 'typescript' && r.path.startsWith('src'))).toBe(true);
    const python = await call('search_code', { query: 'sections', language: 'py' });
    expect((python.structuredContent!.results as Array<{ path: string }>).map((r) => r.path)).toEqual(['tools/ini.py']);
  });

  it.each([
    ['an unknown language', 'search_code', { query: 'x', language: 'klingon' }, /^INVALID_ARGUMENT: language: unknown language "klingon"\. Give one of: typescript, tsx, javascript, python,/],
    ['a search path outside the project', 'search_code', { query: 'x', path: '/etc' }, /^PATH_OUTSIDE_PROJECT: path: \/etc is outside the project/],
    ['an empty query', 'search_code', { query: '   ' }, /"query" is empty/],
    ['a 100 KB query', 'search_code', { query: 'x '.repeat(50_000) }, /"query" is 9999\d characters; at most 2000/],
    ['a range past the end of the file', 'get_file_context', { path: 'src/lru.ts', startLine: 500 }, /"startLine" \(500\) is past the end of src\/lru.ts, which has 24 lines/],
    ['a ../ path', 'get_file_context', { path: '../etc/passwd' }, /"path" .* is outside the project/],
    ['an absolute path elsewhere', 'get_file_context', { path: '/etc/passwd' }, /"path" .* is outside the project/],
    ['a secret file the index leaves out', 'get_file_context', { path: '.env' }, /^PATH_IGNORED: Argument "path": .env is excluded by the project's ignore rules/],
  ])('refuses %s with a clear error and keeps serving', async (_label, tool, args, message) => {
    const result = await call(tool, args);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(message);
    expect(result.content[0]!.text).not.toMatch(/\n\s+at /);
    const again = await call('get_file_context', { path: 'README.md', startLine: 1, endLine: 1 });
    expect(again.structuredContent).toMatchObject({ text: '# Fixture' });
  });

  it('writes nothing but JSON-RPC to stdout (logs went to stderr)', () => {
    expect(stderr).toContain('MCP server listening on stdio');
  });

  it('under serve --no-watch, a first sync_index of paths updates those paths, not the whole tree (a trial got a full run)', async () => {
    const { command, args } = cliCommand(['serve', repo, '--no-watch']);
    const transport = new StdioClientTransport({ command, args, cwd: REPO_ROOT, env: { ...(process.env as Record<string, string>), EMBEDDING_URL: embedder.url }, stderr: 'pipe' });
    const unwatched = new Client({ name: 'monorag-e2e-no-watch', version: '0.0.0' });
    await unwatched.connect(transport);
    try {
      const first = (await unwatched.callTool({ name: 'sync_index', arguments: { paths: ['src/backoff.ts'], wait: true } })) as ToolText;
      expect(first.isError, first.content[0]?.text).toBeFalsy();
      // One file looked at (unchanged); `files` counts the index's files after the run.
      expect(first.structuredContent!.run).toMatchObject({ mode: 'paths', files: 5, unchanged: 1, added: 0, changed: 0 });
      const whole = (await unwatched.callTool({ name: 'sync_index', arguments: { wait: true } })) as ToolText;
      expect(whole.structuredContent!.run).toMatchObject({ mode: 'full' });
    } finally {
      await unwatched.close();
    }
  });
});
