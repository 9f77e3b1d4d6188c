import { spawn, type ChildProcess } from 'node:child_process';
import { findFreePort } from '@monorag/embedder-client';
import { cliCommand, REPO_ROOT } from './cli.js';

/** A `monorag gateway` process started by a test. */
export interface GatewayProcess {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `monorag gateway <repo> --port <free port> --no-watch` (without `--no-watch` when `watch` is set)
 * with extra environment variables and resolves once it prints its URL line; rejects with its stderr if
 * it exits first or takes over 60 s.
 */
export async function startGatewayProcess(repo: string, env: Record<string, string>, extraArgs: string[] = [], { watch = false }: { watch?: boolean } = {}): Promise<GatewayProcess> {
  const port = await findFreePort();
  const { command, args } = cliCommand(['gateway', repo, '--port', String(port), ...(watch ? [] : ['--no-watch']), ...extraArgs]);
  const child: ChildProcess = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, MONORAG_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start within 60 s:\n${stderr}`)), 60_000);
    child.stderr!.on('data', (d) => {
      stderr += d;
      if (stderr.includes('monorag: gateway for ')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening:\n${stderr}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
