import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMBEDDER_STATE_FILE } from '@monorag/embedder-client';
import { loadConfig, type Logger } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { createProjectEmbedder } from './embedder-factory.js';
import { serveEmbeddings } from './test-embedding-server.js';
import type { ProjectContext } from './project-context.js';

describe('createProjectEmbedder (managed server)', () => {
  it('reports a server that cannot start with its own error, without first saying it starts it again', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'monorag-embedder-factory-'));
    const warnings: string[] = [];
    const record = (level: string) => (...args: unknown[]) => void (level === 'warn' && warnings.push(String(args.at(-1))));
    const logger = { warn: record('warn'), info: record('info'), debug: record('debug'), error: record('error') } as unknown as Logger;
    const config = loadConfig({ projectRoot: root, env: { MONORAG_PYTHON: '/nonexistent/bin/python', MONORAG_EMBEDDER_DIR: path.join(root, 'embedder') } });
    const embedder = createProjectEmbedder({ config, dataDir: path.join(root, '.monorag'), logger } as unknown as ProjectContext);
    await expect(embedder.embed(['x'])).rejects.toThrow('/nonexistent/bin/python does not exist');
    expect(warnings).toEqual([]);
  });

  it('finds a replaced server at once when the recorded one stops answering (no retries against the dead address)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'monorag-embedder-factory-'));
    const stateDir = path.join(root, 'embedder');
    const warnings: string[] = [];
    const record = (level: string) => (...args: unknown[]) => void (level === 'warn' && warnings.push(String(args.at(-1))));
    const logger = { warn: record('warn'), info: record('info'), debug: record('debug'), error: record('error') } as unknown as Logger;
    const first = await serveEmbeddings();
    /** Records `server` as the running managed server, as `monorag embedder` does. */
    const recordServer = (server: { port: number; url: string }): void =>
      writeFileSync(path.join(stateDir, EMBEDDER_STATE_FILE), JSON.stringify({ pid: process.pid, port: server.port, url: server.url, startedAt: Date.now(), idleSeconds: 0 }));
    mkdirSync(stateDir, { recursive: true });
    recordServer(first);
    const config = loadConfig({ projectRoot: root, env: { MONORAG_EMBEDDER_DIR: stateDir } });
    const embedder = createProjectEmbedder({ config, dataDir: path.join(root, '.monorag'), logger } as unknown as ProjectContext);
    expect(await embedder.embed(['x'])).toHaveLength(1);
    // Another command replaced the server: the old address is gone, the state names the new one.
    await new Promise((resolve) => first.server.close(resolve));
    const second = await serveEmbeddings();
    try {
      recordServer(second);
      expect(await embedder.embed(['y', 'z'])).toHaveLength(2);
      expect(second.embedded()).toBe(2);
      // Was: three 'embedding request failed; retrying' warnings (about 3.5 s) before the restart.
      expect(warnings).toEqual(['embedding server unavailable; starting it again']);
    } finally {
      await new Promise((resolve) => second.server.close(resolve));
    }
  });
});
