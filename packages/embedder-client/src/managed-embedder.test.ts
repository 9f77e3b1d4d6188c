import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, isMonoragError } from '@monorag/shared';
import { dot, embedderContract } from './embedder-contract.js';
import { readEmbedderState, writeEmbedderState } from './embedder-state.js';
import { createHttpEmbedder } from './http-embedder.js';
import { defaultPython, defaultServerDir, startManagedEmbedder, type ManagedEmbedder } from './managed-embedder.js';
import { isProcessAlive } from './process-alive.js';
import { stopManagedEmbedder } from './stop-managed-embedder.js';

const python = defaultPython(defaultServerDir());

async function waitGone(pid: number, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isProcessAlive(pid) && Date.now() < deadline) await sleep(50);
  return !isProcessAlive(pid);
}

/** A stand-in server directory whose `__main__.py` is `script` (records its pid in `<cwd>/pid`). */
function fakeServerDir(script: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'monorag-fake-server-'));
  mkdirSync(path.join(dir, 'src', 'monorag_embedding_server'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'monorag_embedding_server', '__init__.py'), '');
  writeFileSync(
    path.join(dir, 'src', 'monorag_embedding_server', '__main__.py'),
    `import os, sys, time\nopen("pid", "w").write(str(os.getpid()))\n${script}\n`,
  );
  return dir;
}

/** A stand-in server that answers `GET /health` with `{"status": "ok"}` on its `--port`. */
const HEALTHY_SERVER = [
  'import http.server',
  'port = int(sys.argv[sys.argv.index("--port") + 1])',
  'class H(http.server.BaseHTTPRequestHandler):',
  '    def do_GET(self):',
  '        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers(); self.wfile.write(b\'{"status": "ok"}\')',
  '    def log_message(self, *args): pass',
  'http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()',
].join('\n');

function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'monorag-data-'));
}

describe('startManagedEmbedder with the real model', () => {
  const dataDir = tempDataDir();
  let servers: ManagedEmbedder[] = [];
  let spawned = 0;

  beforeAll(async () => {
    // Two starts at once must share one server.
    servers = await Promise.all([0, 1].map(() => startManagedEmbedder({ dataDir, python, idleSeconds: 300, startupSeconds: 120, onSpawn: () => spawned++ })));
  });

  afterAll(async () => {
    await stopManagedEmbedder({ dataDir });
  });

  it('starts exactly one server for concurrent callers', () => {
    const [a, b] = servers;
    expect(a!.url).toBe(b!.url);
    expect(a!.pid).toBe(b!.pid);
    expect(servers.map((s) => s.reused).sort()).toEqual([false, true]);
    expect(spawned).toBe(1); // the caller that spawned it is told (to say the model is loading); the one that reused it is not
    expect(a!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('records the server in embedder.json and logs to embedder.log', async () => {
    const state = await readEmbedderState(dataDir);
    expect(state).toMatchObject({ pid: servers[0]!.pid, url: servers[0]!.url, idleSeconds: 300 });
    expect(state!.port).toBe(Number(new URL(servers[0]!.url).port));
    expect(readFileSync(path.join(dataDir, 'embedder.log'), 'utf8')).toContain('Application startup complete');
    expect(existsSync(path.join(dataDir, 'embedder.lock'))).toBe(false);
  });

  it('embeds with all-MiniLM-L6-v2: 384 dims, unit norm, related texts closer', async () => {
    const embedder = createHttpEmbedder({ url: servers[0]!.url });
    expect(await embedder.info()).toEqual({ model: 'sentence-transformers/all-MiniLM-L6-v2', dim: 384, maxSeqLength: 256 });
    const [query, code, bread] = await embedder.embed([
      'open a TCP connection to the server',
      'function connect(host, port) { return net.createConnection(port, host); }',
      'bake bread with flour',
    ]);
    expect(query).toHaveLength(384);
    expect(dot(query!, query!)).toBeCloseTo(1, 4);
    expect(dot(query!, code!)).toBeGreaterThan(dot(query!, bread!) + 0.2);
  });

  describe('contract over HTTP (batchSize 2)', () => {
    embedderContract(() => createHttpEmbedder({ url: servers[0]!.url, batchSize: 2 }));
  });

  it('surfaces the server 422 for a text over its character limit', async () => {
    const error = await createHttpEmbedder({ url: servers[0]!.url })
      .embed(['x'.repeat(20_001)])
      .catch((e: unknown) => e);
    // A 4xx is EMBEDDER_REJECTED (exit 1): the text came from a file, not from an argument of the user's.
    expect(isMonoragError(error, ErrorCode.EMBEDDER_REJECTED)).toBe(true);
    expect((error as Error).message).toContain('over the limit of 20000 characters');
  });

  it('reuses the running server, then stops it', async () => {
    const again = await startManagedEmbedder({ dataDir, python, idleSeconds: 300, startupSeconds: 120 });
    expect(again).toEqual({ url: servers[0]!.url, pid: servers[0]!.pid, reused: true });

    expect(await stopManagedEmbedder({ dataDir })).toBe(true);
    expect(await waitGone(servers[0]!.pid)).toBe(true);
    expect(await readEmbedderState(dataDir)).toBeUndefined();
    expect(await stopManagedEmbedder({ dataDir })).toBe(false);
  });
});

describe('startManagedEmbedder failures', () => {
  it('names the setup script when the python interpreter does not exist', async () => {
    const error = await startManagedEmbedder({ dataDir: tempDataDir(), python: '/nonexistent/bin/python', idleSeconds: 1, startupSeconds: 5 }).catch(
      (e: unknown) => e,
    );
    expect(isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE)).toBe(true);
    expect((error as Error).message).toContain('/nonexistent/bin/python does not exist');
    expect((error as Error).message).toContain('bash scripts/setup.sh');
  });

  it('names the setup script when a python on PATH is missing', async () => {
    const error = await startManagedEmbedder({ dataDir: tempDataDir(), python: 'no-such-python-xyz', idleSeconds: 1, startupSeconds: 5 }).catch(
      (e: unknown) => e,
    );
    expect(isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE)).toBe(true);
    expect((error as Error).message).toContain('Could not run the Python interpreter "no-such-python-xyz"');
    expect((error as Error).message).toContain('bash scripts/setup.sh');
  });

  it('reports an early exit with the end of the log and the setup hint', async () => {
    const dataDir = tempDataDir();
    const serverDir = fakeServerDir('sys.stderr.write("No module named sentence_transformers\\n"); sys.exit(3)');
    const error = await startManagedEmbedder({ dataDir, serverDir, python, idleSeconds: 1, startupSeconds: 20 }).catch((e: unknown) => e);
    expect(isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('stopped during start-up (exit code 3');
    expect(message).toContain('No module named sentence_transformers');
    expect(message).toContain(path.join(dataDir, 'embedder.log'));
    expect(message).toContain('bash scripts/setup.sh');
    expect(await readEmbedderState(dataDir)).toBeUndefined();
  });

  it('kills a server that is not ready within startupSeconds and names the log and python', async () => {
    const dataDir = tempDataDir();
    const serverDir = fakeServerDir('time.sleep(60)');
    const error = await startManagedEmbedder({ dataDir, serverDir, python, idleSeconds: 1, startupSeconds: 1 }).catch((e: unknown) => e);
    expect(isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('did not become ready within 1 s');
    expect(message).toContain(`python ${python}`);
    expect(message).toContain(path.join(dataDir, 'embedder.log'));
    const pid = Number(readFileSync(path.join(serverDir, 'src', 'pid'), 'utf8'));
    expect(await waitGone(pid)).toBe(true);
  });

  it('records a server while it starts (an interrupted starter leaves it findable) and forgets it when the start fails', async () => {
    const dataDir = tempDataDir();
    const serverDir = fakeServerDir('time.sleep(60)');
    const starting = startManagedEmbedder({ dataDir, serverDir, python, idleSeconds: 1, startupSeconds: 3 }).catch((e: unknown) => e);
    const pidFile = path.join(serverDir, 'src', 'pid');
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') await sleep(50);
    expect((await readEmbedderState(dataDir))?.pid).toBe(Number(readFileSync(pidFile, 'utf8')));
    expect(isMonoragError(await starting, ErrorCode.EMBEDDER_UNAVAILABLE)).toBe(true);
    expect(await readEmbedderState(dataDir)).toBeUndefined();
  });

  it('stops a recorded server that does not answer before it starts another', async () => {
    const dataDir = tempDataDir();
    const hungDir = fakeServerDir('time.sleep(60)');
    const hung = spawn(python, ['-m', 'monorag_embedding_server'], { cwd: path.join(hungDir, 'src'), stdio: 'ignore' });
    await writeEmbedderState(dataDir, { pid: hung.pid!, port: 9, url: 'http://127.0.0.1:9', startedAt: Date.now(), idleSeconds: 60 });
    const healthy = fakeServerDir(HEALTHY_SERVER);
    const server = await startManagedEmbedder({ dataDir, serverDir: healthy, python, idleSeconds: 60, startupSeconds: 20 });
    try {
      expect(server.reused).toBe(false);
      expect(server.pid).not.toBe(hung.pid);
      expect(await waitGone(hung.pid!)).toBe(true);
      expect((await readEmbedderState(dataDir))?.pid).toBe(server.pid);
    } finally {
      await stopManagedEmbedder({ dataDir });
    }
  });

  it('rejects bad options naming the option', async () => {
    const error = await startManagedEmbedder({ dataDir: tempDataDir(), idleSeconds: -1, startupSeconds: 5 }).catch((e: unknown) => e);
    expect(isMonoragError(error, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    expect((error as Error).message).toContain('idleSeconds must be >= 0');
  });
});
