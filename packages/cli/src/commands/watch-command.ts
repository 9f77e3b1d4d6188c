import { createProjectContext } from '../project-context.js';
import { openProjectIndexer } from '../project-indexer.js';
import { watchProject } from '../watch-project.js';

/** Options of `monorag watch`. */
export interface WatchCommandOptions {
  dataDir?: string;
  /** Debounce of file events in ms. */
  debounceMs?: number;
}

/**
 * `monorag watch [path]`: brings the index up to date, then keeps it so from file events until
 * SIGINT/SIGTERM. Prints one line per update on stdout.
 */
export async function runWatchCommand(project: string | undefined, options: WatchCommandOptions): Promise<void> {
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const indexer = await openProjectIndexer(context);
  const watched = watchProject(context, indexer, {
    debounceMs: options.debounceMs,
    onRun: (r) =>
      process.stdout.write(
        `${new Date().toISOString()} ${r.mode} update: ${r.added} added, ${r.changed} changed, ${r.deleted} deleted, ${r.chunksEmbedded} embedded, ${r.durationMs} ms\n`,
      ),
  });
  await watched.ready;
  const watcher = watched.watcher()!;
  process.stdout.write(`Watching ${context.root} (${watcher.mode()}, ${watcher.watchedDirectories()} directories). Ctrl-C stops.\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await watched.close();
  await indexer.close();
}
