import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand, REPO_ROOT, runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo } from './git-repo.js';

let embedder: FakeEmbeddingHttp;
beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
});
afterAll(async () => {
  await embedder?.stop();
});

/** Spawns `monorag serve --no-watch`, writes `text` to its stdin and ends it; resolves with its exit code, stdout messages and stderr lines. */
function serveRaw(repo: string, text: string): Promise<{ code: number | null; answers: Array<Record<string, unknown>>; stderr: string[] }> {
  const { command, args } = cliCommand(['serve', repo, '--no-watch']);
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'info' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(text);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stderr: stderr.split('\n').filter((l) => l !== ''), answers: stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>) }),
    );
  });
}

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

describe('monorag serve on stdio, sent lines that are not JSON-RPC messages', () => {
  it('answers each with a JSON-RPC error and a line on stderr, and keeps serving', async () => {
    const repo = makeGitRepo({ 'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n' });
    const indexed = await runCli(['index', repo, '-q'], { EMBEDDING_URL: embedder.url });
    expect(indexed.code, indexed.stderr).toBe(0);
    const input = [
      line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } } }),
      line({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      'not json at all\n',
      '{}\n',
      '{"id":77,"method":"tools/list"}\n',
      '{"jsonrpc":"2.0","id":78,"method":"tools/li\n',
      '{"jsonrpc":"2.0","id":79,"method":"tools/call","params":"x"}\n',
      '[{"jsonrpc":"2.0","id":80,"method":"tools/list"}]\n',
      line({ jsonrpc: '2.0', id: 81, method: 'tools/call', params: { name: 'search_code', arguments: 'x' } }),
      line({ jsonrpc: '2.0', id: 82, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'alpha', langauge: 'ts' } } }),
      line({ jsonrpc: '2.0', id: 83, method: 'tools/call', params: { name: 'get_file_context', arguments: { path: 'src/a.ts', startLine: 2, endLine: 2 } } }),
    ].join('');
    const run = await serveRaw(repo, input);
    expect(run.code, run.stderr.join('\n')).toBe(0);
    const parseError = { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid JSON \(.+\)\.$/) };
    const noJsonrpc = { code: -32600, message: 'Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0".' };
    const errors = run.answers.filter((a) => a.error !== undefined);
    expect(errors).toEqual([
      { jsonrpc: '2.0', id: null, error: parseError },
      { jsonrpc: '2.0', id: null, error: noJsonrpc },
      { jsonrpc: '2.0', id: 77, error: noJsonrpc },
      { jsonrpc: '2.0', id: 78, error: parseError }, // cut short: its leading id is read
      { jsonrpc: '2.0', id: 79, error: { code: -32600, message: 'Invalid Request: "params" must be an object, not a string (in a request).' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: batches (a JSON array of messages) are not supported since MCP 2025-06-18; send each message on its own.' } },
      { jsonrpc: '2.0', id: 81, error: { code: -32602, message: 'Invalid params of tools/call: "arguments" must be an object, not a string.' } },
    ]);
    const byId = new Map(run.answers.map((a) => [a.id, a]));
    expect(byId.get(82)).toMatchObject({
      result: {
        isError: true,
        content: [{ type: 'text', text: 'MCP error -32602: Input validation error: Invalid arguments for tool search_code: Unknown argument "langauge" (did you mean "language"?); search_code takes query, limit, path, language.' }],
      },
    });
    expect(byId.get(83)).toMatchObject({ result: { structuredContent: { path: 'src/a.ts', text: '  return 1;' } } });
    const rejected = run.stderr.filter((l) => l.includes('rejected a message on stdin'));
    expect(rejected).toHaveLength(6);
    expect(JSON.parse(rejected[2]!)).toMatchObject({ id: 77, code: -32600, msg: `rejected a message on stdin: ${noJsonrpc.message}` });
  }, 120_000);
});
