import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IndexFreshness, SearchResponse } from '@monorag/retriever';
import type { Logger } from '@monorag/shared';
import { createGatewayApp, type GatewayOptions } from './create-gateway-app.js';

/** One record of {@link TestGateway.logs}. */
export interface LogRecord {
  level: string;
  fields: unknown;
  msg: unknown;
}

/** A gateway over a fake project (for tests), listening on a free loopback port. */
export interface TestGateway {
  url: string;
  /** The project root: `a.ts` holds three lines. */
  root: string;
  /** What the gateway logged, in order. */
  logs: LogRecord[];
  close(): Promise<void>;
}

const index: IndexFreshness = { indexedAt: null, indexedCommit: null, files: 1, chunks: 1, headCommit: null, pendingChanges: 0, unqueuedChanges: 0, queue: null, indexing: false, stale: false, warning: null };

/** A logger that records every call (`logger.warn(fields, msg)` and the like) in `logs`. */
function recordingLogger(logs: LogRecord[]): Logger {
  return new Proxy({} as Logger, { get: (_target, level) => (fields: unknown, msg: unknown) => void logs.push({ level: String(level), fields, msg }) });
}

/** Serves `createGatewayApp` over a fake project (searches find nothing; `a.ts` has three lines), with `overrides`. */
export async function serveTestGateway(overrides: Partial<GatewayOptions> = {}): Promise<TestGateway> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-gateway-')));
  writeFileSync(path.join(root, 'a.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
  const logs: LogRecord[] = [];
  const { app, sessions } = createGatewayApp({
    project: {
      root,
      version: '0.0.0-test',
      readFreshness: async () => index,
      retriever: { search: async (): Promise<SearchResponse> => ({ results: [], mode: 'lexical', index, warnings: [] }) },
    },
    readStatus: async () => ({ files: 1 }),
    probes: { store: async () => ({ ok: true, detail: 'fake' }), embedder: async () => ({ ok: true, detail: 'fake' }) },
    logger: recordingLogger(logs),
    ...overrides,
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    root,
    logs,
    close: async () => {
      await sessions.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Sends one request as raw bytes (`Host` and `Connection: close` added) so a test controls every
 * header, `Content-Length` and `Content-Encoding` included; resolves with the status and the JSON body.
 */
export function rawRequest(url: string, requestLine: string, headers: readonly string[], body: string | Buffer = ''): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${requestLine}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`);
      socket.write(body);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const text = raw.slice(split + 4);
      resolve({ status: Number(raw.split(' ')[1]), body: text === '' ? undefined : JSON.parse(text) });
    });
  });
}
