import path from 'node:path';
import { createHttpEmbedder, startManagedEmbedder, type Embedder } from '@monorag/embedder-client';
import { loadConfig, type Logger } from '@monorag/shared';

/**
 * The embedder for an eval run, configured like the CLI's: `EMBEDDING_URL` when set, otherwise the
 * managed local embedding server with its state in `<cacheDir>/embedder`.
 */
export async function openEmbedder(cacheDir: string, logger?: Logger): Promise<Embedder> {
  const config = loadConfig({ projectRoot: cacheDir });
  const { url, batchSize, timeoutMs } = config.embedding;
  if (url) return createHttpEmbedder({ url, batchSize, timeoutMs, logger });
  const server = await startManagedEmbedder({
    dataDir: path.join(cacheDir, 'embedder'),
    python: config.embedding.python,
    idleSeconds: 600,
    startupSeconds: config.embedding.startupSeconds,
    logger,
  });
  return createHttpEmbedder({ url: server.url, batchSize, timeoutMs, logger });
}
