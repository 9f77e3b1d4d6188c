import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the monorag checkout. */
export const REPO_ROOT = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)));
/**
 * The built CLI, as production runs it (`node packages/cli/dist/bin.js`). The run's global setup
 * (scripts/vitest-build.ts) builds it first, so it is never older than the sources. Started from
 * source through tsx's loader, every CLI call took about 1.2 s longer (2.5 s against 1.4 s on a loaded
 * 2-core machine), and the suite makes a few hundred.
 */
export const CLI_DIST = path.join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js');

/** A shell command that runs the built CLI, for the `--command` of `monorag hooks install`. */
export const CLI_SHELL_COMMAND = `${process.execPath} ${CLI_DIST}`;

/** Command and arguments that start the built CLI (for spawn or the MCP stdio transport): one node process. */
export function cliCommand(args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [CLI_DIST, ...args] };
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
 * Sends `signal` to a child's whole process group (the CLI and any process it started), for children
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

/** A CLI process started by {@link startCli}: its output so far and its exit code. */
export interface StartedCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * Starts `monorag <args>` from the repository root in its own process group (`detached`, so
 * {@link killGroup} reaches the CLI and what it started, as a terminal's Ctrl-C does), with `env`
 * over the test's environment (`MONORAG_LOG_LEVEL` warn unless `env` sets it), collecting its output.
 * @param spawned the test file's list of children, killed in its `afterAll`; the child is added to it.
 */
export function startCli(args: string[], env: Record<string, string>, spawned: ChildProcess[]): StartedCli {
  const { command, args: full } = cliCommand(args);
  const child = spawn(command, full, { cwd: REPO_ROOT, env: { ...process.env, MONORAG_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  spawned.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/**
 * Polls `check` every 100 ms until it holds.
 * @param what what is awaited, named in the error: a text, or a function giving one at the time-out (to show state then).
 * @param timeoutMs longest wait, in ms (default 60 s).
 * @throws Error `timed out waiting for <what>` after `timeoutMs`.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
