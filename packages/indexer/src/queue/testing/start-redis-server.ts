import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { findFreePort } from '@monorag/embedder-client';

/** A redis-server child process started by a test. */
export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}


/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /** The redis-server binary; default `redis-server` on PATH. */
  binary?: string;
  /** Further server arguments, e.g. `['--databases', '4']`. */
  args?: readonly string[];
  /** The port to listen on (e.g. a stopped server's, to stand for its restart); default a free one. */
  port?: number;
  /** Started with `--requirepass <password>`; the readiness probe authenticates with it (`url` does not carry it). */
  password?: string;
}

/**
 * Starts `redis-server` (from apt; `scripts/setup.sh` installs it) on a free loopback port without
 * persistence, and waits until it answers PING (up to 20 s).
 * @throws Error when redis-server is missing or does not come up.
 */
export async function startRedisServer({ binary = 'redis-server', args = [], password, port: given }: StartRedisServerOptions = {}): Promise<TestRedis> {
  const port = given ?? (await findFreePort());
  const serverArgs = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args, ...(password === undefined ? [] : ['--requirepass', password])];
  const child: ChildProcess = spawn(binary, serverArgs, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `redis-server exited (${code ?? signal})`;
  });
  child.once('error', (error) => {
    exited = `redis-server could not start: ${error.message}`;
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited) throw new Error(exited);
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, password });
    // Refused connections are expected until the server listens; connect() rejects with the same error.
    probe.on('error', (error: Error) => probe.emit('probe-error', error));
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') break;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer: ${(error as Error).message}`);
    } finally {
      probe.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
