import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IndexFreshness, SearchResponse } from '@monorag/retriever';
import { createLogger } from '@monorag/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayApp } from './create-gateway-app.js';
import type { McpServerOptions } from '@monorag/mcp';

const fresh: IndexFreshness = { indexedAt: null, indexedCommit: null, files: 1, chunks: 1, headCommit: null, pendingChanges: 0, unqueuedChanges: 0, queue: null, indexing: false, stale: false, warning: null };
const running: IndexFreshness = { ...fresh, indexing: true, stale: true, warning: 'Results may be out of date: an index update is in progress.' };
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-search-route-')));

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Serves a gateway over `project` on a free loopback port; returns its base URL. */
async function serve(project: McpServerOptions): Promise<string> {
  const { app } = createGatewayApp({
    project,
    readStatus: async () => ({}),
    probes: { store: async () => ({ ok: true, detail: 'fake' }), embedder: async () => ({ ok: true, detail: 'fake' }) },
    logger: createLogger({ level: 'silent' }),
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('POST /v1/search', () => {
  it('labels the results with the freshness asked for before the search: a run that ends during the search does not make them fresh', async () => {
    // The index is being updated until the search has read it (the results hold what the run then deletes).
    let runEnded = false;
    const url = await serve({
      root,
      version: '0.0.0-test',
      readFreshness: async () => (runEnded ? fresh : running),
      retriever: {
        search: async (): Promise<SearchResponse> => {
          const found: SearchResponse = { results: [], mode: 'lexical', index: fresh, warnings: [] };
          runEnded = true;
          return found;
        },
      },
    });
    const response = await fetch(`${url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'walrus' }) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as SearchResponse).index).toEqual(running);
  });

  it('answers a failed search with its error, whatever the freshness read does', async () => {
    const url = await serve({
      root,
      version: '0.0.0-test',
      readFreshness: async () => {
        throw new Error('store closed');
      },
      retriever: {
        search: async (): Promise<SearchResponse> => {
          throw new Error('embedder down');
        },
      },
    });
    const response = await fetch(`${url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'walrus' }) });
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain('store closed');
  });
});
