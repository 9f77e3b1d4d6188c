import { createChunker } from '@monorag/chunker';
import { addGitExclude, indexProject, type IndexReport } from '@monorag/indexer';
import { deleteStoreFiles, openSqliteStore } from '@monorag/store';
import { createProjectEmbedder } from '../embedder-factory.js';
import { createProgressReporter } from '../progress-reporter.js';
import { createProjectContext, dataDirIgnorePattern, ensureDataDir } from '../project-context.js';

/** Options of `monorag index`. */
export interface IndexCommandOptions {
  dataDir?: string;
  maxFileBytes?: number;
  rebuild?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** `monorag index [path]`: builds or updates the project's index; prints a summary (or JSON) on stdout. */
export async function runIndexCommand(project: string | undefined, options: IndexCommandOptions): Promise<IndexReport> {
  const context = createProjectContext({
    project,
    argName: '<path>',
    overrides: { dataDir: options.dataDir, index: { maxFileBytes: options.maxFileBytes } },
  });
  ensureDataDir(context);
  const ignorePattern = dataDirIgnorePattern(context);
  if (ignorePattern) await addGitExclude(context.root, ignorePattern);

  const embedder = createProjectEmbedder(context);
  const info = await embedder.info();
  const chunker = await createChunker({ maxTokens: info.maxSeqLength });
  const identity = { model: info.model, dim: info.dim, chunkerVersion: chunker.version };
  if (options.rebuild) deleteStoreFiles(context.storeFile);
  const store = await openSqliteStore({ file: context.storeFile, identity, logger: context.logger });
  const progress = createProgressReporter({ quiet: options.quiet || options.json });
  try {
    const report = await indexProject({
      root: context.root,
      store,
      chunker,
      embedder,
      maxFileBytes: context.config.index.maxFileBytes,
      extraIgnores: ignorePattern ? [ignorePattern] : [],
      logger: context.logger,
      onProgress: (p) => progress.update(p),
    });
    progress.stop();
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
    } else {
      const secs = report.durationMs / 1000;
      process.stdout.write(
        `Indexed ${context.root}\n` +
          `  files: ${report.files} in index (${report.added} added, ${report.changed} changed, ${report.deleted} deleted, ${report.unchanged} unchanged, ${report.skipped.length} skipped)\n` +
          `  chunks: ${report.totalChunks} in index; ${report.chunksWritten} written, ${report.chunksEmbedded} embedded, ${report.chunksFromCache} from cache\n` +
          `  time: ${secs.toFixed(1)} s (${(report.chunksWritten / Math.max(secs, 0.001)).toFixed(1)} chunks/s)\n` +
          `  index: ${context.storeFile}\n`,
      );
    }
    return report;
  } finally {
    progress.stop();
    await store.close();
  }
}
