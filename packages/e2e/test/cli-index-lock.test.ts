import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand, REPO_ROOT } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeFixtureRepo } from './fixture-repo.js';

let embedder: FakeEmbeddingHttp;
beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
});
afterAll(async () => {
  await embedder?.stop();
});

describe('a second monorag index on the same project', () => {
  it('says on stderr that another process (by pid) holds the lock, waits for it, then indexes', async () => {
    const repo = makeFixtureRepo();
    const dataDir = path.join(repo, '.monorag');
    mkdirSync(dataDir, { recursive: true });
    const lockFile = path.join(dataDir, 'index.lock');
    // This test process stands in for the other indexer: a live pid in the lock file.
    writeFileSync(lockFile, `${process.pid}\n`);
    const { command, args } = cliCommand(['index', repo, '--json']);
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      // The message came while waiting: release the lock, as the other run would when done.
      if (stderr.includes('waiting for it to finish')) rmSync(lockFile, { force: true });
    });
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c) => resolve(c ?? -1));
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(
      `monorag: another monorag process (pid ${process.pid}) is indexing ${repo} and holds the lock ${lockFile}; waiting for it to finish (at most 600 s; Ctrl-C to give up).`,
    );
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ files: 5, added: 5 });
    // The wait is reported apart from the run's own time (trial: a run that waited reported 0.1 s and nothing else).
    expect(report.lockWaitMs).toBeGreaterThanOrEqual(100); // at least one 100 ms poll of the lock
    expect(report.lockWaitMs).toBeLessThan(60_000);
  }, 60_000);
});
