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

/** `a full run` or `N path(s)`. */
export function queuedDescription(queued: HookQueued): string {
  return queued === 'full' ? 'a full run' : `${queued} path(s)`;
}

/**
 * The one line of a git hook's run in queue mode (`queue.kind` bullmq) in the hooks' log: time, hook,
 * what this hook queued (`queued N path(s)` or `asked for a full run`), then `outcome`: what this hook's
 * own run did, e.g. `put 2 file job(s) on monorag-index-x for the workers in 40 ms`. Several hooks firing
 * at once (a checkout, a rebase) each get a line of their own paths and jobs. Ends with a newline.
 */
export function hookEnqueueLine(hook: string, queued: HookQueued, outcome: string): string {
  return `${new Date().toISOString()} ${hook}: ${queued === 'full' ? 'asked for a full run' : `queued ${queued} path(s)`}; ${outcome}\n`;
}
