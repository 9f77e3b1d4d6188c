import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ErrorCode, MonoragError, type Logger } from '@monorag/shared';
import { checkHealth } from './check-health.js';
import { readEmbedderState, removeEmbedderState, writeEmbedderState } from './embedder-state.js';
import { findFreePort } from './free-port.js';
import { acquireStartLock } from './start-lock.js';
import { stopManagedEmbedder } from './stop-managed-embedder.js';

/** Log file of the managed server (stdout and stderr, appended), inside the data directory. */
export const EMBEDDER_LOG_FILE = 'embedder.log';
/** Lock file guarding concurrent starts, inside the data directory. */
export const EMBEDDER_LOCK_FILE = 'embedder.lock';

const SETUP_HINT = 'Run `bash scripts/setup.sh` to create the embedding server virtualenv, or set MONORAG_PYTHON to a Python that has its requirements.';

/** Options of {@link startManagedEmbedder}. */
export interface ManagedEmbedderOptions {
  /** monorag data directory; holds `embedder.json`, `embedder.log` and `embedder.lock`. Created if missing. */
  dataDir: string;
  /** Python interpreter (a path, relative to the current directory, or a command on PATH); default `<serverDir>/.venv/bin/python` when it exists, else `python3`. */
  python?: string;
  /** The `packages/embedding-server` directory; default resolved relative to this module. */
  serverDir?: string;
  /** Seconds without a request after which the server exits by itself; 0 = never. */
  idleSeconds: number;
  /** Seconds to wait for the server to answer /health (the model load takes 5-20 s). */
  startupSeconds: number;
  logger?: Logger;
  /** Called once when a new server process is spawned (not when a running one is reused): the model load that follows takes 5-20 s. */
  onSpawn?: () => void;
}

/** A running managed embedding server. */
export interface ManagedEmbedder {
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  pid: number;
  /** True when an already running server (from the state file) was reused. */
  reused: boolean;
}

/** The default `packages/embedding-server` directory (works from both src/ and dist/). */
export function defaultServerDir(): string {
  return fileURLToPath(new URL('../../embedding-server/', import.meta.url));
}

/** The default Python for `serverDir`: its `.venv` interpreter when present, else `python3`. */
export function defaultPython(serverDir: string): string {
  const venvPython = path.join(serverDir, '.venv', 'bin', 'python');
  return existsSync(venvPython) ? venvPython : 'python3';
}

async function logTail(file: string, lines = 15): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n').slice(-3000);
  } catch (error) {
    return `(could not read ${file}: ${(error as Error).message})`;
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

type ExitInfo = { code: number | null; signal: NodeJS.Signals | null } | { error: Error };

async function launch(options: ManagedEmbedderOptions, logger: Logger | undefined): Promise<ManagedEmbedder> {
  const { dataDir, idleSeconds, startupSeconds } = options;
  const serverDir = path.resolve(options.serverDir ?? defaultServerDir());
  const cwd = path.join(serverDir, 'src');
  if (!existsSync(path.join(cwd, 'monorag_embedding_server', '__main__.py'))) {
    throw new MonoragError(
      ErrorCode.EMBEDDER_UNAVAILABLE,
      `The embedding server sources were not found in ${cwd}; pass serverDir pointing at packages/embedding-server.`,
    );
  }
  // A path is made absolute here: the child runs in `<serverDir>/src`, where a relative one would not resolve.
  const python = options.python?.includes('/') ? path.resolve(options.python) : (options.python ?? defaultPython(serverDir));
  if (python.includes('/') && !existsSync(python)) {
    throw new MonoragError(ErrorCode.EMBEDDER_UNAVAILABLE, `The Python interpreter ${python} does not exist. ${SETUP_HINT}`);
  }

  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const args = ['-m', 'monorag_embedding_server', '--host', '127.0.0.1', '--port', String(port), '--idle-seconds', String(idleSeconds)];
  const logFile = path.join(dataDir, EMBEDDER_LOG_FILE);
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    writeSync(fd, `\n--- ${new Date().toISOString()} monorag (pid ${process.pid}) starts: ${python} ${args.join(' ')} (cwd ${cwd})\n`);
    child = spawn(python, args, { cwd, detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  child.unref();
  // Recorded at once, not when ready: if this process is interrupted during the start-up (Ctrl-C),
  // the next command and `embedder stop` still find the server instead of leaving it unrecorded.
  const pid = child.pid!;
  const startedAt = Date.now();
  if (child.pid !== undefined) await writeEmbedderState(dataDir, { pid, port, url, startedAt, idleSeconds });
  let exit: ExitInfo | undefined;
  child.once('exit', (code, signal) => (exit = { code, signal }));
  child.once('error', (error) => (exit = { error }));
  logger?.info({ python, url, logFile }, 'starting embedding server');
  options.onSpawn?.();

  const started = Date.now();
  const deadline = started + startupSeconds * 1000;
  for (;;) {
    if (exit) {
      await removeEmbedderState(dataDir);
      if ('error' in exit) {
        throw new MonoragError(
          ErrorCode.EMBEDDER_UNAVAILABLE,
          `Could not run the Python interpreter "${python}" (${exit.error.message}). ${SETUP_HINT}`,
          { cause: exit.error },
        );
      }
      const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
      throw new MonoragError(
        ErrorCode.EMBEDDER_UNAVAILABLE,
        `The embedding server stopped during start-up (${how}; python ${python}). Last lines of ${logFile}:\n${await logTail(logFile)}\n` +
          (exit.code === 3 ? SETUP_HINT : `See ${logFile}; if Python packages are missing: ${SETUP_HINT}`),
      );
    }
    if (await checkHealth(url, 1000)) break;
    if (Date.now() > deadline) {
      killGroup(child);
      await removeEmbedderState(dataDir);
      throw new MonoragError(
        ErrorCode.EMBEDDER_UNAVAILABLE,
        `The embedding server did not become ready within ${startupSeconds} s (python ${python}); it was stopped. ` +
          `See ${logFile}, or raise embedding.startupSeconds on a slow machine. Last lines:\n${await logTail(logFile)}`,
      );
    }
    await sleep(250);
  }
  logger?.info({ url, pid, ms: Date.now() - started }, 'embedding server ready');
  return { url, pid, reused: false };
}

/**
 * The recorded server when it answers /health. Under the start lock (`stopUnresponsive`), one that
 * does not answer is stopped (hung, or still loading after its starter was interrupted), so that
 * replacing it never leaves two running; without the lock another process may be starting it.
 */
async function findRunning(dataDir: string, logger: Logger | undefined, stopUnresponsive = false): Promise<ManagedEmbedder | undefined> {
  const state = await readEmbedderState(dataDir);
  if (!state) return undefined;
  if (await checkHealth(state.url)) return { url: state.url, pid: state.pid, reused: true };
  if (!stopUnresponsive) return undefined;
  logger?.info({ pid: state.pid, url: state.url }, 'the recorded embedding server does not answer; stopping it and starting a new one');
  await stopManagedEmbedder({ dataDir, graceMs: 2000 });
  return undefined;
}

/**
 * Returns a running embedding server for `dataDir`: the one recorded in `<dataDir>/embedder.json`
 * when it answers /health (`reused: true`), else a new one. A new server is spawned as
 * `<python> -m monorag_embedding_server --host 127.0.0.1 --port <free port> --idle-seconds <idleSeconds>`
 * with cwd `<serverDir>/src`, detached and unref'd (it outlives this process and exits after
 * `idleSeconds` idle), output appended to `<dataDir>/embedder.log`. Concurrent calls for one
 * `dataDir` (also from other processes) start at most one server (lock file `embedder.lock`).
 * @throws MonoragError `INVALID_ARGUMENT` for bad options; `EMBEDDER_UNAVAILABLE` when Python or
 *   the server sources are missing, the server exits during start-up, or it is not ready within
 *   `startupSeconds` (the child is then killed); the message names the log file and the Python used.
 */
export async function startManagedEmbedder(options: ManagedEmbedderOptions): Promise<ManagedEmbedder> {
  const { dataDir, idleSeconds, startupSeconds, logger } = options;
  if (typeof dataDir !== 'string' || dataDir === '') {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, 'startManagedEmbedder: dataDir must be a non-empty directory path.');
  }
  if (!(Number.isFinite(idleSeconds) && idleSeconds >= 0)) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `startManagedEmbedder: idleSeconds must be >= 0 (0 = never stop), got ${idleSeconds}.`);
  }
  if (!(Number.isFinite(startupSeconds) && startupSeconds > 0)) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `startManagedEmbedder: startupSeconds must be > 0, got ${startupSeconds}.`);
  }
  await mkdir(dataDir, { recursive: true });
  const running = await findRunning(dataDir, logger);
  if (running) return running;

  const limitMs = startupSeconds * 1000 + 30_000;
  const release = await acquireStartLock({ file: path.join(dataDir, EMBEDDER_LOCK_FILE), staleMs: limitMs, waitMs: limitMs, logger });
  try {
    return (await findRunning(dataDir, logger, true)) ?? (await launch(options, logger));
  } finally {
    await release();
  }
}
