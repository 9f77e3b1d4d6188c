import { createHttpEmbedder, startManagedEmbedder, type Embedder } from '@monorag/embedder-client';
import { ErrorCode, isMonoragError } from '@monorag/shared';
import type { ProjectContext } from './project-context.js';

/**
 * The embedder for a project: the server at `embedding.url` (EMBEDDING_URL) when configured,
 * otherwise the managed local server (state in `embedding.stateDir`, shared by every project), started
 * on first use and reused across commands and projects. If the
 * managed server died (e.g. it stopped after its idle period), it is started again once.
 */
export function createProjectEmbedder(context: ProjectContext): Embedder {
  const { config, dataDir, logger } = context;
  const { url, batchSize, timeoutMs } = config.embedding;
  if (url) return createHttpEmbedder({ url, batchSize, timeoutMs, logger });

  let current: Promise<Embedder> | undefined;
  const connect = (): Promise<Embedder> => {
    if (current) return current;
    const started = startManagedEmbedder({
      dataDir: config.embedding.stateDir ?? dataDir,
      python: config.embedding.python,
      idleSeconds: config.embedding.idleSeconds,
      startupSeconds: config.embedding.startupSeconds,
      logger,
    }).then((server: { url: string; reused: boolean }) => {
      logger.info({ url: server.url, reused: server.reused }, 'embedding server ready');
      return createHttpEmbedder({ url: server.url, batchSize, timeoutMs, logger });
    });
    started.catch(() => {
      if (current === started) current = undefined;
    });
    current = started;
    return started;
  };
  const withRestart = async <T>(call: (e: Embedder) => Promise<T>): Promise<T> => {
    try {
      return await call(await connect());
    } catch (error) {
      if (!isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE)) throw error;
      logger.warn('embedding server unavailable; starting it again');
      current = undefined;
      return call(await connect());
    }
  };
  return {
    info: () => withRestart((e) => e.info()),
    embed: (texts) => withRestart((e) => e.embed(texts)),
    vocabulary: () => withRestart(async (e) => e.vocabulary?.()),
  };
}
