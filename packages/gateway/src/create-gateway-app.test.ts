import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { IndexFreshness, SearchResponse } from '@monorag/retriever';
import { createLogger } from '@monorag/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayApp, type GatewayOptions } from './create-gateway-app.js';

const index: IndexFreshness = { indexedAt: null, indexedCommit: null, files: 1, chunks: 1, headCommit: null, pendingChanges: 0, unqueuedChanges: 0, queue: null, indexing: false, stale: false, warning: null };
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-gateway-')));
writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');

let server: Server | undefined;
let closeSessions: (() => Promise<void>) | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await closeSessions?.();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Serves a gateway over a fake project on a free loopback port; returns its base URL. */
async function serve(overrides: Partial<GatewayOptions> = {}): Promise<string> {
  const { app, sessions } = createGatewayApp({
    project: {
      root,
      version: '0.0.0-test',
      readFreshness: async () => index,
      retriever: { search: async (): Promise<SearchResponse> => ({ results: [], mode: 'lexical', index, warnings: [] }) },
    },
    readStatus: async () => ({ files: 1 }),
    probes: { store: async () => ({ ok: true, detail: 'fake' }), embedder: async () => ({ ok: false, detail: 'down' }) },
    logger: createLogger({ level: 'silent' }),
    ...overrides,
  });
  closeSessions = () => sessions.closeAll();
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An SDK client connected over Streamable HTTP. */
async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'gateway-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

describe('createGatewayApp: MCP sessions', () => {
  it('refuses a session past maxSessions with 503, and takes one again after a session ends', async () => {
    const url = await serve({ sessions: { max: 1, idleMs: 60_000 } });
    const first = await connect(url);
    const refused = new Client({ name: 'gateway-test', version: '0.0.0' });
    await expect(refused.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))).rejects.toMatchObject({
      code: 503,
      message: expect.stringContaining('Too many MCP sessions: 1 are open (gateway.maxSessions, MONORAG_GATEWAY_MAX_SESSIONS)'),
    });
    await first.transport.terminateSession();
    const second = await connect(url);
    expect((await second.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_file_context', 'search_code']);
  });

  it('closes a session idle for idleMs; its id then gets 404', async () => {
    const url = await serve({ sessions: { max: 4, idleMs: 500 } });
    const { transport } = await connect(url);
    const id = transport.sessionId!;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^Session not found: it expired or was closed/);
  });

  it('answers a non-initialize request without a session id with 400', async () => {
    const url = await serve();
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^Bad request: no Mcp-Session-Id header/);
  });
});

/** A raw POST to /mcp (with the session id when given); resolves with the status and the JSON-RPC message(s) of the answer (JSON or SSE). */
async function postMcp(url: string, body: string, session?: string): Promise<{ status: number; messages: unknown[] }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  if (session !== undefined) headers['mcp-session-id'] = session;
  const response = await fetch(`${url}/mcp`, { method: 'POST', headers, body });
  const text = await response.text();
  const messages = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as unknown)
    : [JSON.parse(text) as unknown];
  return { status: response.status, messages };
}

describe('createGatewayApp: /mcp answers malformed messages in JSON-RPC shape', () => {
  it.each([
    ['a body that is not JSON', '{"jsonrpc":"2.0","id":1,"method":"tools/li', 400, { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid JSON \(/) }, 1], // cut short: its leading id is read
    ['JSON that is not an object', '3', 400, { code: -32600, message: 'Invalid Request: a JSON-RPC message must be a JSON object, not a number.' }, null],
    ['an object that is no message', '{"foo":1}', 400, { code: -32600, message: 'Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0".' }, null],
    ['a request without "jsonrpc"', '{"id":77,"method":"tools/list"}', 400, { code: -32600, message: 'Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0".' }, 77],
    ['params that are not an object', '{"jsonrpc":"2.0","id":79,"method":"tools/call","params":"x"}', 400, { code: -32600, message: 'Invalid Request: "params" must be an object, not a string (in a request).' }, 79],
    ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', 400, { code: -32600, message: 'Invalid Request: batches (a JSON array of messages) are not supported since MCP 2025-06-18; send each message on its own.' }, null],
  ])('%s, with a valid session', async (_label, body, status, error, id) => {
    const url = await serve();
    const { client, transport } = await connect(url);
    const answer = await postMcp(url, body, transport.sessionId);
    expect(answer).toEqual({ status, messages: [{ jsonrpc: '2.0', error, id }] });
    expect((await client.listTools()).tools).toHaveLength(2);
  });

  it('a body that is not JSON without a session id is -32700 too', async () => {
    const url = await serve();
    expect(await postMcp(url, 'not json at all')).toEqual({
      status: 400,
      messages: [{ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid JSON \(/) } }],
    });
  });

  it.each([
    [
      'a charset other than UTF-8',
      { 'content-type': 'application/json; charset=latin1' },
      415,
      'Invalid Request: The request body\'s charset "latin1" (Content-Type: application/json; charset=latin1) is not supported; send the JSON in UTF-8 with Content-Type: application/json (or application/json; charset=utf-8).',
    ],
    [
      'an unknown Content-Encoding',
      { 'content-type': 'application/json', 'content-encoding': 'lzma' },
      415,
      'Invalid Request: Content-Encoding: lzma is not supported; send the body uncompressed without a Content-Encoding header, or compressed with Content-Encoding: gzip, deflate or br.',
    ],
  ])('%s is its 4xx with -32600 in JSON-RPC shape (was the REST shape, which MCP clients cannot read)', async (_label, headers, status, message) => {
    const url = await serve();
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { ...headers, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect({ status: response.status, body: await response.json() }).toEqual({ status, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message } } });
  });

  it('a body over 1 MB is 413 -32600', async () => {
    const url = await serve();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } });
    expect(await postMcp(url, body)).toEqual({
      status: 413,
      messages: [{ jsonrpc: '2.0', id: null, error: { code: -32600, message: "Invalid Request: the body is over the gateway's limit of 1 MB (1048576 bytes); send a smaller message." } }],
    });
  });

  it('tools/call whose arguments are not an object is -32602 naming "arguments", answered to the request', async () => {
    const url = await serve();
    const { transport } = await connect(url);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'search_code', arguments: 'x' } });
    expect(await postMcp(url, body, transport.sessionId)).toEqual({
      status: 200,
      messages: [{ jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'Invalid params of tools/call: "arguments" must be an object, not a string.' } }],
    });
  });
});

describe('createGatewayApp: HTTP', () => {
  it('on a loopback bind, refuses a request naming another Host (DNS rebinding) with 403', async () => {
    const url = new URL(await serve());
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/v1/status', headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('/health is degraded but 200 when only the embedder is down, 503 when the store is', async () => {
    const up = await serve();
    const degraded = await fetch(`${up}/health`);
    expect(degraded.status).toBe(200);
    expect(await degraded.json()).toMatchObject({ status: 'degraded', store: { ok: true }, embedder: { ok: false, detail: 'down' } });
  });

  it('/health reports a store whose probe throws as down, with 503', async () => {
    const url = await serve({ probes: { store: async () => Promise.reject(new Error('database is locked')), embedder: async () => ({ ok: true, detail: 'up' }) } });
    const response = await fetch(`${url}/health`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'degraded', store: { ok: false, detail: 'database is locked' } });
  });
});
