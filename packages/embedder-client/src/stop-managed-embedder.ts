import { setTimeout as sleep } from 'node:timers/promises';
import { removeEmbedderState, readEmbedderState } from './embedder-state.js';
import { isEmbedderProcess } from './process-alive.js';

/** Options of {@link stopManagedEmbedder}. */
export interface StopManagedEmbedderOptions {
  /** monorag data directory holding `embedder.json`. */
  dataDir: string;
  /** Wait this many ms after SIGTERM before SIGKILL. */
  graceMs?: number;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isEmbedderProcess(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/**
 * Stops the managed embedding server recorded in `<dataDir>/embedder.json`: SIGTERM, then SIGKILL
 * after `graceMs`; removes the state file. A recorded pid that now belongs to another program is
 * left alone (checked through /proc on Linux).
 * @returns true when a server was running and was stopped, false when none was running.
 */
export async function stopManagedEmbedder({ dataDir, graceMs = 5000 }: StopManagedEmbedderOptions): Promise<boolean> {
  const state = await readEmbedderState(dataDir);
  if (!state) return false;
  const running = isEmbedderProcess(state.pid);
  if (running) {
    signal(state.pid, 'SIGTERM');
    if (!(await waitGone(state.pid, graceMs))) {
      signal(state.pid, 'SIGKILL');
      await waitGone(state.pid, 2000);
    }
  }
  await removeEmbedderState(dataDir);
  return running;
}
