import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startManagedEmbedder, stopManagedEmbedder } from '@monorag/embedder-client';

/** A real embedding server (real model) shared by the tests of one file. */
export interface TestEmbeddingServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the real embedding server (all-MiniLM-L6-v2) in a temp data directory. */
export async function startTestEmbeddingServer(): Promise<TestEmbeddingServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-embedder-'));
  const server = await startManagedEmbedder({ dataDir, idleSeconds: 600, startupSeconds: 180 });
  return {
    url: server.url,
    stop: async () => {
      await stopManagedEmbedder({ dataDir });
    },
  };
}
