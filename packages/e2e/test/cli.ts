import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the monorag checkout. */
export const REPO_ROOT = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)));
/** The tsx binary and the CLI entry, run from source. */
export const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
export const CLI_ENTRY = path.join(REPO_ROOT, 'packages', 'cli', 'src', 'bin.ts');

/** Command and arguments that start the CLI from source (for spawn or the MCP stdio transport). */
export function cliCommand(args: string[]): { command: string; args: string[] } {
  return { command: TSX, args: ['--conditions=monorag-source', CLI_ENTRY, ...args] };
}

/** Result of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  cwd?: string;
  /** Run as this user and group id (e.g. an unprivileged user, so that file permissions apply). */
  uid?: number;
  gid?: number;
}

/** Runs `monorag <args>` to completion with extra environment variables. */
export function runCli(args: string[], env: Record<string, string> = {}, { cwd = REPO_ROOT, uid, gid }: RunCliOptions = {}): Promise<CliRun> {
  const { command, args: full } = cliCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, full, {
      cwd,
      env: { ...process.env, MONORAG_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(uid !== undefined ? { uid } : {}),
      ...(gid !== undefined ? { gid } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Sends `signal` to a child's whole process group (tsx and the node process it runs), for children
 * spawned `detached`; a group that has already exited (ESRCH) is what the caller wants.
 * @throws the kill error for anything but ESRCH (EPERM, a bad signal)
 */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
