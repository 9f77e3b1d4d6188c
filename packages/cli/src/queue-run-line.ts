import { InvalidArgumentError } from 'commander';
import type { QueuedPaths } from '@monorag/indexer';

/** What a git hook queued, as it tells `monorag index --from-queue --queued`: a number of paths, or `full` (a full run). */
export type HookQueued = number | 'full';

/**
 * Commander parser of `--queued`: a whole number >= 0 (the lines of the hook's queue file) or `full`.
 * @throws InvalidArgumentError for anything else.
 */
export function parseHookQueued(value: string): HookQueued {
  if (value === 'full') return 'full';
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a whole number >= 0 or "full", got "${value}".`);
  return n;
}

/** What a run read from the path queue, in the same terms (de-duplicated paths of every queue file read). */
export function drainedQueued(queue: Pick<QueuedPaths, 'full' | 'paths'>): HookQueued {
  return queue.full ? 'full' : queue.paths.length;
}

/**
 * The one line a `--from-queue` run prints per run (into the hooks' log): time, hook, what was
 * enqueued (`a full run` or `N path(s)`; with `more`, `N more path(s) ... meanwhile`, for runs that
 * take up what later hooks queued), then `outcome`, e.g. `indexed in 120 ms`. Ends with a newline.
 */
export function queueRunLine(hook: string, queued: HookQueued, outcome: string, more = false): string {
  const what = queued === 'full' ? 'a full run' : `${queued} ${more ? 'more ' : ''}path(s)`;
  return `${new Date().toISOString()} ${hook}: ${what} enqueued${more ? ' meanwhile' : ''}, ${outcome}\n`;
}
