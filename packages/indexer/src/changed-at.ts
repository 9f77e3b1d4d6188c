import type { Stats } from 'node:fs';

/**
 * When a file last changed as freshness judges it, in ms since the Unix epoch: the later of its
 * modification time and its status-change time. `cp -p`, `tar x`, `unzip` and `rsync -a` set the
 * modification time back to the source's, but the status-change time records the write and cannot be
 * set by a program (git compares both for the same reason). A `chmod` or a rename moves it too: such a
 * file counts as changed once, until the next run reads it and finds the same text.
 */
export function changedAt(stats: Pick<Stats, 'mtimeMs' | 'ctimeMs'>): number {
  return Math.max(stats.mtimeMs, stats.ctimeMs);
}
