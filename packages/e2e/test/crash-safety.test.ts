import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The e2e package reads the SQLite index directly through the store's source (no workspace dependency needed).
import { openSqliteStore } from '../../store/src/index.js';
import { cliCommand, REPO_ROOT, runCli } from './cli.js';
import { startTestEmbeddingServer, type TestEmbeddingServer } from './embedding-server.js';

const PINO = path.join(REPO_ROOT, 'eval', '.corpora', 'pino-10.4.0');

let embedder: TestEmbeddingServer;
beforeAll(async () => {
  embedder = await startTestEmbeddingServer();
});
afterAll(async () => {
  await embedder?.stop();
});

/** Manifest (path -> content hash) and chunk ranges per file of an index. */
async function snapshot(file: string): Promise<{ manifest: Record<string, string>; ranges: Record<string, string[]> }> {
  const store = await openSqliteStore({ file });
  try {
    const manifest: Record<string, string> = {};
    const ranges: Record<string, string[]> = {};
    for (const f of await store.listFiles()) {
      manifest[f.path] = f.contentHash;
      const chunks = await store.chunksOfFile(f.path);
      expect(chunks.length, f.path).toBe(f.chunkCount);
      ranges[f.path] = chunks.map((c) => `${c.startLine}-${c.endLine}:${c.contentHash}`);
    }
    return { manifest, ranges };
  } finally {
    await store.close();
  }
}

describe('crash safety', () => {
  it.skipIf(!existsSync(PINO))('SIGKILL mid-run, then a restart, gives the same index as a clean full run', async () => {
    const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-crash-')));
    for (const part of ['lib', 'pino.js', 'README.md']) cpSync(path.join(PINO, part), path.join(repo, part), { recursive: true });
    const env = { ...process.env, EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'warn', MONORAG_EMBED_BATCH_SIZE: '8' };
    const storeFile = path.join(repo, '.monorag', 'index.sqlite');

    const { command, args } = cliCommand(['index', repo, '--quiet']);
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ? -1 : code)));
    // Mid-run: some files written, the run not finished (the lock file names the live indexer).
    for (;;) {
      const indexed = existsSync(storeFile) ? await snapshot(storeFile).then((s) => Object.keys(s.manifest).length, () => 0) : 0;
      if (indexed >= 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The lock names the indexing process itself (tsx runs the CLI in a child of the spawned process).
    const indexerPid = Number(readFileSync(path.join(repo, '.monorag', 'index.lock'), 'utf8').trim());
    expect(Number.isInteger(indexerPid)).toBe(true);
    process.kill(indexerPid, 'SIGKILL');
    process.kill(child.pid!, 'SIGKILL');
    expect(await exited).toBe(-1);
    const partial = await snapshot(storeFile);

    const resumed = await runCli(['index', repo, '--json'], { EMBEDDING_URL: embedder.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout) as { unchanged: number; files: number };
    expect(report.unchanged).toBe(Object.keys(partial.manifest).length);

    const cleanDir = mkdtempSync(path.join(tmpdir(), 'monorag-crash-clean-'));
    const clean = await runCli(['index', repo, '--json', '--data-dir', cleanDir], { EMBEDDING_URL: embedder.url });
    expect(clean.code, clean.stderr).toBe(0);
    const after = await snapshot(storeFile);
    expect(after).toEqual(await snapshot(path.join(cleanDir, 'index.sqlite')));
    expect(Object.keys(after.manifest).length).toBe(report.files);
  }, 900_000);

  it.skipIf(!existsSync(PINO))('Ctrl-C mid-run says what is kept and how to finish, frees the lock, and the rerun skips what was written', async () => {
    const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-sigint-')));
    for (const part of ['lib', 'pino.js', 'README.md']) cpSync(path.join(PINO, part), path.join(repo, part), { recursive: true });
    const env = { ...process.env, EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'warn', MONORAG_EMBED_BATCH_SIZE: '8' };
    const storeFile = path.join(repo, '.monorag', 'index.sqlite');
    const lockFile = path.join(repo, '.monorag', 'index.lock');
    const { command, args } = cliCommand(['index', repo, '--quiet']);
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (;;) {
      const indexed = existsSync(storeFile) ? await snapshot(storeFile).then((s) => Object.keys(s.manifest).length, () => 0) : 0;
      if (indexed >= 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const indexerPid = Number(readFileSync(lockFile, 'utf8').trim());
    process.kill(indexerPid, 'SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain(`monorag: interrupted (SIGINT); the files indexed so far are kept. Run \`monorag index ${repo}\` again to finish`);
    expect(existsSync(lockFile)).toBe(false);
    const partial = await snapshot(storeFile);
    expect(Object.keys(partial.manifest).length).toBeGreaterThanOrEqual(3);
    const resumed = await runCli(['index', repo, '--json'], { EMBEDDING_URL: embedder.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as { unchanged: number }).unchanged).toBe(Object.keys(partial.manifest).length);
  }, 900_000);
});
