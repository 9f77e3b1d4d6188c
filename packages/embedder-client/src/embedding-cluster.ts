import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { findFreePort } from './free-port.js';
import { defaultPython, defaultServerDir } from './managed-embedder.js';

/**
 * Real embedding-server processes and a real nginx in front of them, for the failover test and
 * `pnpm bench:embed`. Test and bench helper: not exported by the package.
 */

/** nginx's proxy rules shipped in the repository (`nginx/embedding-proxy.conf`). */
export const NGINX_PROXY_CONF = fileURLToPath(new URL('../../../nginx/embedding-proxy.conf', import.meta.url));

/** A running `python -m monorag_embedding_server`. */
export interface EmbeddingServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything it wrote to stderr so far (JSON log lines). */
  stderr: () => string;
  /** SIGKILL, and wait for the exit. */
  kill: () => Promise<void>;
}

/** Options of {@link startEmbeddingServer}. */
export interface EmbeddingServerOptions {
  /** Port on 127.0.0.1; a free one when unset. */
  port?: number;
  /** `fake` (hash vectors, loads in ms) or `sentence-transformers` (the real all-MiniLM-L6-v2). */
  modelImpl?: 'fake' | 'sentence-transformers';
  /** The child's whole environment, e.g. `{ ...process.env, EMBEDDING_TORCH_THREADS: '1' }`; unset inherits this process's. */
  env?: NodeJS.ProcessEnv;
  /** How long to wait for `GET /ready`, in ms. */
  startupMs?: number;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitFor(check: () => Promise<boolean>, what: string, ms: number, alive: () => string | undefined): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    const dead = alive();
    if (dead !== undefined) throw new Error(`${what} exited before it was ready:\n${dead}`);
    if (Date.now() > deadline) throw new Error(`${what} was not ready within ${ms} ms`);
    await sleep(100);
  }
}

/** Starts one embedding server and waits until `GET /ready` answers 200. */
export async function startEmbeddingServer({
  port,
  modelImpl = 'fake',
  env,
  startupMs = 180_000,
}: EmbeddingServerOptions = {}): Promise<EmbeddingServerProcess> {
  const serverDir = defaultServerDir();
  const chosen = port ?? (await findFreePort());
  const child = spawn(
    defaultPython(serverDir),
    ['-m', 'monorag_embedding_server', '--port', String(chosen), '--model-impl', modelImpl, '--log-level', 'warning'],
    { cwd: path.join(serverDir, 'src'), env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${chosen}`;
  const kill = async (): Promise<void> => {
    child.kill('SIGKILL');
    await exited(child);
  };
  try {
    await waitFor(
      async () => (await fetch(`${url}/ready`)).status === 200,
      `embedding server on port ${chosen}`,
      startupMs,
      () => (child.exitCode !== null ? stderr.slice(-2000) : undefined),
    );
  } catch (error) {
    await kill();
    throw error;
  }
  return { url, port: chosen, child, stderr: () => stderr, kill };
}

/** The nginx binary, or an error that says how to install it. */
export function findNginx(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) {
    if (existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  throw new Error('nginx is not installed: run `bash scripts/setup.sh` (it installs nginx with apt-get), then run the tests again.');
}

/** A running nginx (its own prefix directory, config and logs in a temp dir). */
export interface NginxProcess {
  url: string;
  /** The generated nginx.conf and the error log, for failure messages. */
  dir: string;
  errorLog: () => Promise<string>;
  stop: () => Promise<void>;
}

/**
 * Starts nginx on a free loopback port in front of `upstreams` (ports on 127.0.0.1), with the
 * upstream settings of `nginx/nginx.conf` (least_conn, max_fails=3 fail_timeout=10s, keepalive)
 * and the repository's `nginx/embedding-proxy.conf` as the server's rules. Stop it with `stop()`.
 * @throws Error when nginx is missing (saying to run scripts/setup.sh) or does not start.
 */
export async function startNginx(upstreams: number[]): Promise<NginxProcess> {
  const nginx = findNginx();
  const dir = await mkdtemp(path.join(tmpdir(), 'monorag-nginx-'));
  const port = await findFreePort();
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=3 fail_timeout=10s;`).join('\n');
  // As root (CI), workers would run as `nobody` and could not use this private temp dir.
  const user = process.getuid?.() === 0 ? 'user root;\n' : '';
  const conf = `${user}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream embedding {
${servers}
    least_conn;
    keepalive 32;
    keepalive_timeout 20s;
  }
  server {
    listen 127.0.0.1:${port};
    include ${NGINX_PROXY_CONF};
  }
}
`;
  await writeFile(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(nginx, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const errorLog = async (): Promise<string> => `${stderr}${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`;
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM'); // nginx's fast shutdown
    await exited(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => (await fetch(`${url}/nowhere`)).status === 404,
      'nginx',
      20_000,
      () => (child.exitCode !== null ? stderr : undefined),
    );
  } catch (error) {
    const log = await errorLog();
    await stop();
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  return { url, dir, errorLog, stop };
}

/** The value of one Prometheus sample, e.g. `metricValue(text, 'embedding_requests_total{endpoint="/embed",status="200"}')`; 0 when absent. */
export function metricValue(text: string, sample: string): number {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${sample} `)) return Number(line.slice(sample.length + 1));
  }
  return 0;
}
