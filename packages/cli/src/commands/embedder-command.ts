import { stopManagedEmbedder } from '@monorag/embedder-client';
import { createProjectContext } from '../project-context.js';

/** `monorag embedder stop`: stops the managed embedding server of a project, if one runs. */
export async function runEmbedderStopCommand(options: { project?: string; dataDir?: string }): Promise<boolean> {
  const context = createProjectContext({ project: options.project, argName: '--project', overrides: { dataDir: options.dataDir } });
  const stopped = await stopManagedEmbedder({ dataDir: context.dataDir });
  process.stdout.write(stopped ? 'Embedding server stopped.\n' : 'No embedding server was running for this project.\n');
  return stopped;
}
