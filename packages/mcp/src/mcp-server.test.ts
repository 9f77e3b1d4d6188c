import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { unknownPaths } from '@monorag/indexer';
import type { IndexFreshness, SearchResponse } from '@monorag/retriever';
import type { IndexRunSummary } from './index-control.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from './mcp-server.js';

const index: IndexFreshness = { indexedAt: null, indexedCommit: null, files: 1, chunks: 1, headCommit: null, pendingChanges: 0, unqueuedChanges: 0, queue: null, indexing: false, stale: false, warning: null };
const hit = { path: 'odd\nname.ts', startLine: 1, endLine: 2, symbol: 'f', scopes: ['Retry'], kind: 'function' as const, language: 'typescript', score: 0.5, snippet: 'function f() {}' };

let root: string;
let client: Client | undefined;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-mcp-')));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
  writeFileSync(path.join(root, 'realkey.txt'), key);
  writeFileSync(path.join(root, 'comment-then-long.js'), `// comment\n${'y'.repeat(600_000)}\n`);
  writeFileSync(path.join(root, 'empty.py'), '');
  symlinkSync('src', path.join(root, 'linked'));
});

afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** The `paths` of every sync_index the fake index control received. */
const synced: (readonly string[] | undefined)[] = [];
/** The last run the fake index control reports. */
let lastRun: IndexRunSummary | null = null;

/** Connects an in-process client to a server over `root` whose search returns `hit` and whose index control is fake. */
async function connect(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServer().connect(serverSide);
  client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A server over `root` whose search returns `hit` and whose index control is fake. */
function createServer() {
  return createMcpServer({
    root,
    version: '0.0.0-test',
    readFreshness: async () => index,
    retriever: { search: async (): Promise<SearchResponse> => ({ results: [hit], mode: 'lexical', index, warnings: [] }) },
    indexControl: {
      status: async () => ({ index, watching: 'off', watchedDirectories: 0, lastRun, lastError: null }),
      sync: async ({ paths }) => {
        synced.push(paths);
        return null;
      },
      unknownPaths: async (paths) => unknownPaths(root, paths, [{ path: 'gone.ts' }]),
    },
  });
}

/** Sends raw JSON-RPC messages (after initializing) to a new server; resolves with the answers to the requests among them, by id. */
async function exchange(messages: JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServer().connect(serverSide);
  const answers: JSONRPCMessage[] = [];
  clientSide.onmessage = (message) => answers.push(message);
  await clientSide.start();
  const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } };
  await clientSide.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (const message of messages) await clientSide.send(message);
  const expected = messages.length + 1;
  for (let i = 0; i < 200 && answers.length < expected; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  await clientSide.close();
  const id = (message: JSONRPCMessage) => Number((message as { id: number }).id);
  return answers.filter((message) => id(message) !== 0).sort((a, b) => id(a) - id(b));
}

/** The text of a tool result, and whether it is an error. */
async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; structured: Record<string, unknown> | undefined }> {
  const result = await (await connect()).callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  return { text: content[0]!.text, isError: result.isError === true, structured: result.structuredContent as Record<string, unknown> | undefined };
}

describe('MCP tools', () => {
  it('index_status names the files the last run left out and why, so an assistant learns a file is not searchable', async () => {
    const run = { mode: 'full', files: 3, added: 3, changed: 0, deleted: 0, unchanged: 0, chunksEmbedded: 9, moved: 0, cachePruned: 0, durationMs: 1200 } as const;
    lastRun = {
      ...run,
      skipped: { total: 23, files: [{ path: 'src/huge.ts', reason: 'too-large', detail: '1350025 bytes > 1048576' }, { path: 'blob.bin', reason: 'binary', removed: true }] },
    };
    try {
      const result = await call('index_status', {});
      expect(result.text).toContain(
        'Last full run: 3 added (0 moved), 0 changed, 0 deleted, 0 unchanged; 9 chunks embedded in 1.2 s; 3 files in the index. ' +
          'Skipped 23: src/huge.ts (too-large: 1350025 bytes > 1048576), blob.bin (binary; removed from the index), and 21 more.',
      );
      expect((result.structured?.lastRun as IndexRunSummary).skipped).toEqual(lastRun.skipped);
      lastRun = run;
      expect((await call('index_status', {})).text).toContain('3 files in the index.\n');
    } finally {
      lastRun = null;
    }
  });

  it('get_file_context refuses a file whose content holds a private key, with no ignore rules given', async () => {
    const result = await call('get_file_context', { path: 'realkey.txt', startLine: 1, endLine: 2 });
    expect(result).toMatchObject({
      isError: true,
      text: 'PATH_IGNORED: Argument "path": realkey.txt holds a private key, so the index leaves it out (skip reason "secret"); it is not served.',
    });
  });

  it('get_file_context says an empty file is empty (0 lines), with no code block', async () => {
    const result = await call('get_file_context', { path: 'empty.py' });
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^empty\.py is empty \(0 lines\)\.\n\n/);
    expect(result.text).not.toContain('```');
    expect(result.structured).toMatchObject({ path: 'empty.py', startLine: 1, endLine: 0, totalLines: 0, text: '' });
  });

  it('get_file_context cuts a line longer than 40,000 characters there and says the rest cannot be read', async () => {
    const first = await call('get_file_context', { path: 'comment-then-long.js' });
    expect(first.text).toContain('(truncated: continue with startLine 2; the file has 2 lines)');
    const second = await call('get_file_context', { path: 'comment-then-long.js', startLine: 2 });
    expect(second.structured).toMatchObject({ startLine: 2, endLine: 2, truncated: true, cutLine: { line: 2, shown: 40_000, chars: 600_000 } });
    expect(second.structured?.text).toHaveLength(40_000);
    expect(second.text).toContain(
      '(truncated: line 2 is 600000 characters long and was cut after its first 40000; get_file_context reads lines from their start only, so the rest of this line cannot be read; it is the last line of the file)',
    );
  });

  it('sync_index warns about each path that names nothing, as `index --paths` does', async () => {
    const result = await call('sync_index', { paths: ['nope/', 'src/a.ts', 'gone.ts'] });
    const warning = 'Argument "paths": nope/ names no file or directory of the project and nothing in its index; check the spelling (paths are relative to the project root).';
    expect(result.isError).toBe(false);
    expect(result.structured?.warnings).toEqual([warning]);
    expect(result.text.split('\n\n').slice(0, 2)).toEqual(['Update started.', `> Warning: ${warning}`]);
    expect((await call('sync_index', {})).structured?.warnings).toEqual([]);
  });

  it('sync_index warns about a path through a directory link, which no run follows, naming the real path (trial: nothing happened, without a word)', async () => {
    const result = await call('sync_index', { paths: ['linked/a.ts'] });
    expect(result.isError).toBe(false);
    expect(result.structured?.warnings).toEqual([
      'Argument "paths": linked/a.ts goes through the symbolic link linked, which monorag does not follow (each file is indexed once, under its real path), so it updates nothing; give src/a.ts instead.',
    ]);
  });

  it('sync_index refuses an empty list of paths, which updated nothing without a word (trial), and says to leave it out for the whole tree', async () => {
    const before = synced.length;
    const result = await call('sync_index', { paths: [], wait: true });
    expect(result).toMatchObject({
      isError: true,
      text: 'MCP error -32602: Input validation error: Invalid arguments for tool sync_index: expected at least one path (an empty list updates nothing; leave the argument out to update the whole tree) at paths',
    });
    expect(synced.length).toBe(before);
  });

  it('sync_index takes paths absolute inside the project, as the other tools do, and refuses one outside naming `paths`', async () => {
    synced.length = 0;
    const inside = await call('sync_index', { paths: [path.join(root, 'src', 'a.ts'), 'src/', root] });
    expect(inside.isError).toBe(false);
    expect(synced).toEqual([['src/a.ts', 'src/', '']]);
    const outside = await call('sync_index', { paths: ['../../etc/passwd'] });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain(`PATH_OUTSIDE_PROJECT: Argument "paths": ../../etc/passwd is outside the project ${root}; give a path inside it, relative to the project root or absolute.`);
    expect(synced).toHaveLength(1);
  });

  it('search_code keeps a result header on one line for a file name with a newline', async () => {
    const result = await call('search_code', { query: 'f' });
    expect(result.text.split('\n')).toContain('### 1. "odd\\nname.ts":1-2 `Retry > f` (function, score 0.5)');
  });

  it('search_code counts one result in the singular', async () => {
    const result = await call('search_code', { query: 'f' });
    expect(result.text.split('\n')[0]).toBe('1 result for the query.');
  });

  it('answers tools/call whose arguments are not an object with -32602 naming "arguments", and keeps serving', async () => {
    const answers = await exchange([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_code', arguments: 'x' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_code', arguments: null } } as unknown as JSONRPCMessage,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'f' } } },
    ]);
    expect(answers.slice(0, 2)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params of tools/call: "arguments" must be an object, not a string.' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params of tools/call: "arguments" must be an object, not null.' } },
    ]);
    expect(answers[2]).toMatchObject({ id: 3, result: { structuredContent: { results: [{ symbol: 'f' }] } } });
  });

  it.each([
    ['search_code', { query: 'retry', langauge: 'ts' }, 'Unknown argument "langauge" (did you mean "language"?); search_code takes query, limit, path, language.'],
    ['search_code', { query: 'retry', foo: 1, lmit: 2 }, 'Unknown arguments "foo", "lmit" (did you mean "limit"?); search_code takes query, limit, path, language.'],
    ['get_file_context', { path: 'src/a.ts', start: 1 }, 'Unknown argument "start"; get_file_context takes path, startLine, endLine.'],
    ['index_status', { verbose: true }, 'Unknown argument "verbose"; index_status takes no arguments.'],
    ['sync_index', { path: ['src'] }, 'Unknown argument "path" (did you mean "paths"?); sync_index takes paths, wait.'],
  ])('%s refuses unknown arguments %j as it refuses a wrong type, naming them and the known ones', async (name, args, message) => {
    const result = await call(name, args);
    expect(result).toMatchObject({ isError: true, text: `MCP error -32602: Input validation error: Invalid arguments for tool ${name}: ${message}` });
  });
});

describe('search_code freshness', () => {
  it('labels the results with the freshness asked for before the search: a run that ends during the search does not make them fresh', async () => {
    const running: IndexFreshness = { ...index, indexing: true, stale: true, warning: 'Results may be out of date: an index update is in progress.' };
    let runEnded = false;
    const server = createMcpServer({
      root,
      version: '0.0.0-test',
      readFreshness: async () => (runEnded ? index : running),
      retriever: {
        search: async (): Promise<SearchResponse> => {
          runEnded = true;
          return { results: [hit], mode: 'lexical', index, warnings: [] };
        },
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test', version: '0.0.0' });
    await client.connect(clientSide);
    const result = (await client.callTool({ name: 'search_code', arguments: { query: 'walrus' } })) as { structuredContent?: { index?: IndexFreshness } };
    expect(result.structuredContent?.index).toEqual(running);
  });
});
