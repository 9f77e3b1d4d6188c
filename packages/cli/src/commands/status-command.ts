import { openRetriever } from '../open-retriever.js';
import { createProjectContext } from '../project-context.js';

/** `monorag status`: what the index holds and how fresh it is. */
export async function runStatusCommand(options: { project?: string; dataDir?: string; json?: boolean }): Promise<void> {
  const context = createProjectContext({ project: options.project, argName: '--project', overrides: { dataDir: options.dataDir } });
  const index = await openRetriever(context);
  try {
    const freshness = await index.readFreshness();
    const status = { root: context.root, indexFile: context.storeFile, identity: index.store.identity, ...freshness };
    if (options.json) {
      process.stdout.write(`${JSON.stringify(status)}\n`);
      return;
    }
    process.stdout.write(
      `Project: ${status.root}\nIndex: ${status.indexFile}\n` +
        `Model: ${status.identity.model} (${status.identity.dim} dims), chunker ${status.identity.chunkerVersion}\n` +
        `Files: ${status.files}, chunks: ${status.chunks}\n` +
        `Updated: ${status.indexedAt ?? 'never'}${status.indexedCommit ? ` at commit ${status.indexedCommit}` : ''}\n`,
    );
  } finally {
    await index.close();
  }
}
