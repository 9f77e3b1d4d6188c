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

interface Answer {
  id: number;
  result?: { content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
  error?: unknown;
}

/**
 * Spawns `monorag serve`, writes `lines` to its stdin (each ending in a newline, the last too unless
 * `lastNewline` is false) and ends it at once; resolves with its exit code and stdout lines.
 */
function serveWithInput(args: string[], lines: unknown[], lastNewline = true): Promise<{ code: number | null; answers: Answer[]; stderr: string }> {
  const { command, args: full } = cliCommand(args);
  const child = spawn(command, full, { cwd: REPO_ROOT, env: { ...process.env, EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'info' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const input = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  child.stdin.end(lastNewline ? input : input.slice(0, -1));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, answers: stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Answer) }));
  });
}

describe('monorag serve on stdio when stdin ends with requests in flight', () => {
  it('answers every request received before EOF, then exits 0', async () => {
    const repo = makeGitRepo({ 'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n' });
    const indexed = await runCli(['index', repo, '-q'], { EMBEDDING_URL: embedder.url });
    expect(indexed.code, indexed.stderr).toBe(0);
    const run = await serveWithInput(['serve', repo, '--no-watch'], [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_file_context', arguments: { path: 'src/a.ts', startLine: 2, endLine: 2 } } },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.answers.map((a) => a.id)).toEqual([1, 2, 3]);
    const call = run.answers[2]!;
    expect(call.error).toBeUndefined();
    expect(call.result!.isError).toBeFalsy();
    expect(call.result!.structuredContent).toMatchObject({ path: 'src/a.ts', startLine: 2, endLine: 2, totalLines: 3, text: '  return 1;', truncated: false });
    expect(call.result!.content[0]!.text).toMatch(/^src\/a\.ts:2-2 of 3 lines\n\n```\n {2}return 1;\n```\n/);
    expect(run.stderr).not.toContain('still unanswered');
  }, 120_000);

  it('answers a last request sent without a newline before EOF', async () => {
    const repo = makeGitRepo({ 'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n' });
    const indexed = await runCli(['index', repo, '-q'], { EMBEDDING_URL: embedder.url });
    expect(indexed.code, indexed.stderr).toBe(0);
    const run = await serveWithInput(
      ['serve', repo, '--no-watch'],
      [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ],
      false,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.answers.slice(1)).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    expect(run.stderr).not.toContain('rejected a message on stdin');
  }, 120_000);
});
