import { existsSync, readFileSync } from 'node:fs';
import { isProcessAlive } from '@monorag/shared';

export { isProcessAlive };

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
