import { existsSync, readFileSync } from 'node:fs';

/** True when a process with this pid exists (also when it belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when `pid` is alive and, where `/proc` exists (Linux), its command line names
 * `monorag_embedding_server`; this guards against signalling an unrelated process that reused the
 * pid. A zombie (exited, not yet reaped) has an empty command line and counts as not running.
 */
export function isEmbedderProcess(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  if (!existsSync('/proc/self/cmdline')) return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('monorag_embedding_server');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
