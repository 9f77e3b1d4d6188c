import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Logger } from '@monorag/shared';
import { describe, expect, it } from 'vitest';
import { createProjectEmbedder } from './embedder-factory.js';
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
});
