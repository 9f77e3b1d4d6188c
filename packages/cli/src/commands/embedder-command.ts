import { stopManagedEmbedder } from '@monorag/embedder-client';
import { createProjectContext } from '../project-context.js';

/** `monorag embedder stop`: stops the managed embedding server the project's configuration names (`embedding.stateDir`), if one runs. */
export async function runEmbedderStopCommand(options: { project?: string; dataDir?: string }): Promise<boolean> {
  const context = createProjectContext({ project: options.project, argName: '--project', overrides: { dataDir: options.dataDir } });
  const stopped = await stopManagedEmbedder({ dataDir: context.config.embedding.stateDir ?? context.dataDir });
  process.stdout.write(stopped ? 'Embedding server stopped.\n' : 'No managed embedding server was running.\n');
  return stopped;
}
