import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, until } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { FIXTURE_FILES } from './fixture-repo.js';
import { writeGeneratedCorpus } from './generated-corpus.js';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.js';
import { makeGitRepo, tokenFile } from './git-repo.js';

const TOKEN = 'e2e-gateway-token-0123456789abcdef';
const OTHER_TOKEN = 'e2e-gateway-token-fedcba9876543210';

let embedder: FakeEmbeddingHttp;
let repo: string;
let gateway: GatewayProcess;

beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
  repo = makeGitRepo(FIXTURE_FILES);
  writeFileSync(path.join(repo, '.env'), 'API_KEY=sk-live-not-for-assistants\n');
  // A dependency and a file git ignores (through .git/info/exclude, which adds no indexed file).
  mkdirSync(path.join(repo, 'node_modules/ms'), { recursive: true });
  writeFileSync(path.join(repo, 'node_modules/ms/index.js'), 'module.exports = function ms() {};\n');
  mkdirSync(path.join(repo, 'tmp'));
  writeFileSync(path.join(repo, 'tmp/scratch.txt'), 'scratch\n');
  appendFileSync(path.join(repo, '.git/info/exclude'), 'tmp/\n');
  const indexed = await runCli(['index', repo, '--quiet'], { EMBEDDING_URL: embedder.url });
  expect(indexed.code, indexed.stderr).toBe(0);
  gateway = await startGatewayProcess(repo, { EMBEDDING_URL: embedder.url, MONORAG_GATEWAY_TOKEN: `${TOKEN},${OTHER_TOKEN}` });
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  await embedder?.stop();
});

/** A request to the gateway with the token (unless `token` is null) and a JSON body when given. */
function request(route: string, { method = 'GET', body, token = TOKEN }: { method?: string; body?: unknown; token?: string | null } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${gateway.url}${route}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
}

/** A GET with a raw `Host` header (fetch cannot set one; node:http fills in an empty one), resolving with the status and the parsed JSON body (undefined when empty). */
function getWithHost(route: string, host: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`GET ${route} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`);
    });
    let raw = '';
    socket.on('data', (d) => (raw += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: body === '' ? undefined : JSON.parse(body) });
    });
  });
}

/** The value of one sample line of the Prometheus text, e.g. `name{labels} 3` -> 3 (0 when absent). */
function sample(metrics: string, line: string): number {
  const found = metrics.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}

describe('monorag gateway: MCP over Streamable HTTP', () => {
  it('serves the tools of monorag serve to the SDK client with a token, and search_code finds the right file first', async () => {
    const client = new Client({ name: 'monorag-e2e-http', version: '0.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['get_file_context', 'index_status', 'search_code', 'sync_index']);
      const result = await client.callTool({ name: 'search_code', arguments: { query: 'evict the least recently used entry when the cache is full', limit: 3 } });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as { results: Array<{ path: string; symbol: string }>; mode: string; index: { files: number } };
      expect(structured.results[0]).toMatchObject({ path: 'src/lru.ts' });
      expect(structured.mode).toBe('hybrid');
      expect(structured.index.files).toBe(5);
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  });

  it('refuses an MCP client without a token with 401', async () => {
    const client = new Client({ name: 'monorag-e2e-http', version: '0.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`)))).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('"code":"UNAUTHORIZED"'),
    });
  });
});

describe('monorag gateway: /mcp refuses what is not one JSON-RPC message in JSON-RPC shape', () => {
  it('invalid JSON is -32700, an object without "jsonrpc" and a batch -32600, arguments that are not an object -32602; the session goes on', async () => {
    const client = new Client({ name: 'monorag-e2e-http', version: '0.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    await client.connect(transport);
    try {
      const post = async (body: string) => {
        const response = await fetch(`${gateway.url}/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' },
          body,
        });
        const text = await response.text();
        const json = response.headers.get('content-type')?.startsWith('text/event-stream') ? text.split('\n').find((l) => l.startsWith('data: '))!.slice(6) : text;
        return { status: response.status, body: JSON.parse(json) as unknown };
      };
      expect(await post('{"jsonrpc":"2.0","id":1,"method":"tools/li')).toEqual({
        status: 400,
        body: { jsonrpc: '2.0', id: 1, error: { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid JSON \(/) } },
      });
      expect(await post('{"foo":1}')).toEqual({
        status: 400,
        body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0".' } },
      });
      expect(await post('[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]')).toEqual({
        status: 400,
        body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: batches (a JSON array of messages) are not supported since MCP 2025-06-18; send each message on its own.' } },
      });
      expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_code', arguments: null } }))).toEqual({
        status: 200,
        body: { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params of tools/call: "arguments" must be an object, not null.' } },
      });
      const typo = await client.callTool({ name: 'search_code', arguments: { query: 'retry', langauge: 'ts' } });
      expect(typo).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Unknown argument "langauge" \(did you mean "language"\?\); search_code takes query, limit, path, language\.$/) }] });
      expect((await client.listTools()).tools).toHaveLength(4);
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  });
});

describe('monorag gateway: REST', () => {
  it('POST /v1/search answers with the hits and freshness of search --json, the right file first', async () => {
    const response = await request('/v1/search', { method: 'POST', body: { query: 'lower-case a title and join its words with dashes', mode: 'lexical', limit: 2 } });
    expect(response.status).toBe(200);
    const json = (await response.json()) as { results: Array<{ path: string; symbol: string; startLine: number; endLine: number }>; mode: string; index: { files: number; stale: boolean }; warnings: string[] };
    expect(json.results[0]).toMatchObject({ path: 'src/slug.ts', symbol: 'slugify', startLine: 1, endLine: 7 });
    expect(json.results.length).toBeLessThanOrEqual(2);
    expect(json).toMatchObject({ mode: 'lexical', index: { files: 5, stale: false }, warnings: [] });
    const cli = await runCli(['search', 'lower-case a title and join its words with dashes', '--lexical', '--json', '--limit', '2', '--project', repo], { EMBEDDING_URL: embedder.url });
    expect(json.results).toEqual((JSON.parse(cli.stdout) as { results: unknown[] }).results);
  });

  it('POST /v1/search keeps to the path and language filters', async () => {
    const response = await request('/v1/search', { method: 'POST', body: { query: 'cache capacity sections title', mode: 'lexical', language: 'py' } });
    const json = (await response.json()) as { results: Array<{ path: string }> };
    expect(json.results.map((r) => r.path)).toEqual(['tools/ini.py']);
    const outside = await request('/v1/search', { method: 'POST', body: { query: 'x', path: '/etc' } });
    expect(outside.status).toBe(403);
    expect(((await outside.json()) as { error: { code: string; message: string } }).error.code).toBe('PATH_OUTSIDE_PROJECT');
  });

  it('answers 400 naming the field for a bad body', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ query: 'x', limit: 0 }, 'limit', /^Field "limit": Too small: expected number to be >=1\. Send a JSON object \{"query": string, "limit"\?: 1-50/],
      [{ limit: 3 }, 'query', /^Field "query": Invalid input: expected string, received undefined\./],
      [{ query: 'x', limt: 3 }, 'limt', /^Field "limt": is not a known field\./],
      [{ query: 'x', mode: 'fuzzy' }, 'mode', /^Field "mode": Invalid option: expected one of "hybrid"\|"lexical"\|"dense"\./],
    ];
    for (const [body, field, message] of cases) {
      const response = await request('/v1/search', { method: 'POST', body });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string; field: string } };
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', field });
      expect(error.message).toMatch(message);
    }
    const notJson = await request('/v1/search', { method: 'POST', body: '{"query": ' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toMatch(/^The request body is not valid JSON/);
  });

  it('GET /v1/status answers the JSON of status --json', async () => {
    const response = await request('/v1/status');
    expect(response.status).toBe(200);
    const json = (await response.json()) as Record<string, unknown>;
    expect(json).toMatchObject({ root: repo, files: 5, chunks: expect.any(Number), identity: { model: 'fake-hash-embedder', dim: 384 }, stale: false, fallbacks: { files: 0 } });
    const cli = await runCli(['status', '--json', '--project', repo], { EMBEDDING_URL: embedder.url });
    const fromCli = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(Object.keys(fromCli).sort());
    expect(json.identity).toEqual(fromCli.identity);
  });

  it('GET /v1/file reads exact lines and refuses what get_file_context refuses', async () => {
    const response = await request('/v1/file?path=src/slug.ts&startLine=2&endLine=2');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ path: 'src/slug.ts', startLine: 2, endLine: 2, totalLines: 7, text: 'export function slugify(title: string): string {', truncated: false, index: { files: 5 } });
    for (const [query, status, code] of [
      ['path=.env', 403, 'PATH_IGNORED'],
      ['path=node_modules/ms/index.js', 403, 'PATH_IGNORED'],
      ['path=tmp/scratch.txt', 403, 'PATH_IGNORED'],
      ['path=../../etc/passwd', 403, 'PATH_OUTSIDE_PROJECT'],
      ['path=src/slug.ts&startLine=0', 400, 'INVALID_ARGUMENT'],
      ['path=src/nope.ts', 404, 'NOT_FOUND'],
    ] as const) {
      const refused = await request(`/v1/file?${query}`);
      expect(refused.status, query).toBe(status);
      expect(((await refused.json()) as { error: { code: string } }).error.code, query).toBe(code);
    }
  });

  it('names the field of an unknown language and of a query over search.maxQueryChars', async () => {
    const language = await request('/v1/search', { method: 'POST', body: { query: 'x', language: 'klingon' } });
    expect(language.status).toBe(400);
    expect(((await language.json()) as { error: unknown }).error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'language', message: expect.stringMatching(/^language: unknown language "klingon"/) });
    const long = await request('/v1/search', { method: 'POST', body: { query: 'a'.repeat(2001) } });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: unknown }).error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'query', message: expect.stringMatching(/^Field "query": is over 2000 characters/) });
  });

  it('says a JSON body that is not an object must be one, and answers a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const nullBody = await request('/v1/search', { method: 'POST', body: 'null' });
    expect(nullBody.status).toBe(400);
    expect(((await nullBody.json()) as { error: unknown }).error).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^The request body must be a JSON object, not null;/) });
    const huge = await request('/v1/search', { method: 'POST', body: JSON.stringify({ query: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: unknown }).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining("over the gateway's limit of 1 MB") });
  });

  it('answers a search body not sent as JSON with 415 naming the Content-Type it had', async () => {
    const body = JSON.stringify({ query: 'slug' });
    const plain = await fetch(`${gateway.url}/v1/search`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain' }, body });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toEqual({
      error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be JSON sent with Content-Type: application/json; this request has Content-Type: text/plain.' },
    });
    const none = await fetch(`${gateway.url}/v1/search`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: new Uint8Array(Buffer.from(body)) });
    expect(none.status).toBe(415);
    expect(((await none.json()) as { error: { message: string } }).error.message).toBe(
      'The request body must be JSON sent with Content-Type: application/json; this request has no Content-Type.',
    );
  });

  it('refuses a foreign or empty Host with the gateway\'s error shape (a JSON-RPC error on /mcp)', async () => {
    for (const route of ['/health', '/v1/status']) {
      const foreign = await getWithHost(route, 'evil.example:7700');
      expect(foreign.status, route).toBe(403);
      expect(foreign.body, route).toEqual({ error: { code: 'HOST_NOT_ALLOWED', message: expect.stringMatching(/^Host "evil\.example:7700" is not a loopback name/) } });
    }
    const mcp = await getWithHost('/mcp', 'evil.example');
    expect(mcp.status).toBe(403);
    expect(mcp.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/^HOST_NOT_ALLOWED: Host "evil\.example"/) }, id: null });
    const empty = await getWithHost('/health', '');
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^The request has no Host header/) } });
    expect((await getWithHost('/health', `localhost:${new URL(gateway.url).port}`)).status).toBe(200);
  });

  it('answers 404 JSON for an unknown route', async () => {
    const response = await request('/v1/nothing');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'ROUTE_NOT_FOUND', message: expect.stringMatching(/^No route GET \/v1\/nothing\. The gateway serves POST \/v1\/search/) });
  });
});

describe('monorag gateway: auth, health, metrics', () => {
  it('answers 401 without a token and with a wrong one, saying which', async () => {
    const none = await request('/v1/status', { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="monorag"');
    expect(((await none.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/^This gateway needs a token: send the header "Authorization: Bearer <token>"/) });
    const wrong = await request('/v1/search', { method: 'POST', body: { query: 'x' }, token: 'e2e-gateway-token-0123456789abcdeX' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/^The bearer token is not one of the gateway's tokens/);
    expect((await request('/v1/status', { token: OTHER_TOKEN })).status).toBe(200);
  });

  it('GET /health needs no token and says the store and the embedder answer', async () => {
    const response = await request('/health', { token: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      store: { ok: true, detail: expect.stringMatching(/^sqlite: 5 files, \d+ chunks$/) },
      embedder: { ok: true, detail: `${embedder.url} answers` },
    });
  });

  it('GET /health bound beyond loopback names no embedder URL to a client without a token; with one it does', async () => {
    const open = await startGatewayProcess(repo, { EMBEDDING_URL: embedder.url, MONORAG_GATEWAY_TOKEN: TOKEN }, ['--host', '0.0.0.0']);
    try {
      const get = async (headers: Record<string, string>) => {
        const response = await fetch(`${open.url}/health`, { headers });
        return { status: response.status, body: await response.json() };
      };
      const store = { ok: true, detail: expect.stringMatching(/^sqlite: 5 files, \d+ chunks$/) };
      expect(await get({})).toEqual({ status: 200, body: { status: 'ok', uptimeSeconds: expect.any(Number), store, embedder: { ok: true, detail: 'embedding server answers' } } });
      expect(await get({ authorization: `Bearer ${TOKEN}` })).toEqual({
        status: 200,
        body: { status: 'ok', uptimeSeconds: expect.any(Number), store, embedder: { ok: true, detail: `${embedder.url} answers` } },
      });
    } finally {
      expect(await open.stop()).toBe(0);
    }
  });

  it('GET /metrics counts requests per route and status, and times searches', async () => {
    const metrics = async () => (await request('/metrics')).text();
    const route = 'monorag_http_requests_total{method="POST",route="/v1/search",status="200"}';
    const searches = 'monorag_search_duration_seconds_count{mode="lexical",outcome="ok"}';
    const denied = 'monorag_http_requests_total{method="GET",route="/v1/status",status="401"}';
    const before = await metrics();
    for (let i = 0; i < 3; i++) expect((await request('/v1/search', { method: 'POST', body: { query: `slugify ${i}`, mode: 'lexical' } })).status).toBe(200);
    expect((await request('/v1/status', { token: null })).status).toBe(401);
    const after = await metrics();
    expect(sample(after, route) - sample(before, route)).toBe(3);
    expect(sample(after, searches) - sample(before, searches)).toBe(3);
    expect(sample(after, denied) - sample(before, denied)).toBe(1);
    expect(after).toContain('# TYPE monorag_http_request_duration_seconds histogram');
    expect((await request('/metrics', { token: null })).status).toBe(401);
  });
});

describe('monorag gateway: rate limit, bind safety, shutdown', () => {
  it('answers 429 past the rate limit per client, and never limits /health', async () => {
    const limited = await startGatewayProcess(repo, { EMBEDDING_URL: embedder.url, MONORAG_GATEWAY_TOKEN: TOKEN, MONORAG_GATEWAY_RATE_LIMIT: '3' });
    try {
      const get = (token: string | null, route = '/v1/status') => fetch(`${limited.url}${route}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(TOKEN)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await get(TOKEN);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many requests: at most 3 per 60 s per client; retry after the seconds the Retry-After header gives.' });
      for (let i = 0; i < 5; i++) expect((await get(null, '/health')).status).toBe(200);
    } finally {
      expect(await limited.stop()).toBe(0);
    }
  });

  it('never rate-limits closing an MCP session or /metrics, so closed sessions free their places', async () => {
    // No token: every local client shares one per-IP budget.
    const limited = await startGatewayProcess(repo, { EMBEDDING_URL: embedder.url, MONORAG_GATEWAY_RATE_LIMIT: '6', MONORAG_GATEWAY_MAX_SESSIONS: '1' });
    try {
      const transport = new StreamableHTTPClientTransport(new URL(`${limited.url}/mcp`));
      const client = new Client({ name: 'monorag-e2e-http', version: '0.0.0' });
      await client.connect(transport);
      let status = 0;
      for (let i = 0; i < 10 && status !== 429; i++) status = (await fetch(`${limited.url}/v1/status`)).status;
      expect(status).toBe(429);
      for (let i = 0; i < 3; i++) expect((await fetch(`${limited.url}/metrics`)).status).toBe(200);
      await transport.terminateSession();
      await client.close();
      expect(sample(await (await fetch(`${limited.url}/metrics`)).text(), 'monorag_mcp_sessions')).toBe(0);
    } finally {
      expect(await limited.stop()).toBe(0);
    }
  });

  it('gateway and serve --no-watch serve the index as it is: a project without one is refused, nothing is built', async () => {
    const fresh = makeGitRepo(FIXTURE_FILES);
    const serve = await runCli(['serve', fresh, '--no-watch'], { EMBEDDING_URL: embedder.url });
    expect(serve.code).toBe(1);
    expect(serve.stderr).toMatch(/^monorag: No index for .* Run `monorag index .*` first\.\n$/s);
    const outcome = await startGatewayProcess(fresh, { EMBEDDING_URL: embedder.url }).then(
      async (started) => `listening (exit ${await started.stop()})`,
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/^gateway exited with 1 before listening:\nmonorag: No index for .* Run `monorag index .*` first\.\n$/s);
    expect(existsSync(path.join(fresh, '.monorag', 'index.sqlite'))).toBe(false);
  });

  it('README, Dockerfile.gateway and docker-compose start the gateway with node, not pnpm (pnpm does not pass SIGTERM on)', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## HTTP gateway'), readme.indexOf('## Configuration'));
    const launches = section.split('\n').filter((line) => /\bgateway ~|\bgateway \//.test(line) && !line.startsWith('|'));
    expect(launches.length).toBeGreaterThan(0);
    for (const line of launches) expect(line).toMatch(/^(node packages\/cli\/dist\/bin\.js|monorag) gateway /);
    expect(readFileSync(path.join(REPO_ROOT, 'Dockerfile.gateway'), 'utf8')).toContain('ENTRYPOINT ["node", "/app/packages/cli/dist/bin.js"]');
    const compose = readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    expect(compose).not.toMatch(/(command|entrypoint):.*pnpm/);
  });

  it('on SIGTERM during sync_index {wait: true}: says so, answers the call with SHUTTING_DOWN, stops the run and exits within seconds', async () => {
    const busy = makeGitRepo(FIXTURE_FILES);
    expect((await runCli(['index', busy, '--quiet'], { EMBEDDING_URL: embedder.url })).code).toBe(0);
    writeGeneratedCorpus(busy, 300);
    // A slow model: the run takes far longer than the test waits.
    const slow = await startFakeEmbeddingHttp('fake-hash-embedder', { delayMs: 1000 });
    const running = await startGatewayProcess(busy, { EMBEDDING_URL: slow.url });
    const client = new Client({ name: 'monorag-e2e-http', version: '0.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
      const call = client.callTool({ name: 'sync_index', arguments: { wait: true } });
      const settled = call.then((r) => r, (error: Error) => error);
      for (let i = 0; i < 100 && slow.texts() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(slow.texts()).toBeGreaterThan(0);
      const signalled = Date.now();
      const code = await running.stop();
      const stoppedMs = Date.now() - signalled;
      expect(code).toBe(0);
      expect(stoppedMs).toBeLessThan(5000);
      const result = (await settled) as { isError?: boolean; content: Array<{ text: string }> };
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/^SHUTTING_DOWN: The server is shutting down, so the index update was stopped before it finished \(the files indexed so far are kept\)/);
      expect(running.stderr()).toContain('monorag: gateway shutting down (SIGTERM): stopping any index run');
      // The lock is free: the next run finishes what was left.
      const rerun = await runCli(['index', busy, '--json'], { EMBEDDING_URL: embedder.url });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect((JSON.parse(rerun.stdout) as { files: number }).files).toBe(305);
    } finally {
      await client.close();
      await slow.stop();
    }
  }, 60_000);

  it('refuses a non-loopback --host without a token (exit 2), before opening anything', async () => {
    const run = await runCli(['gateway', repo, '--host', '0.0.0.0', '--port', '1'], { EMBEDDING_URL: embedder.url });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'monorag: --host 0.0.0.0: 0.0.0.0 is not a loopback address and no gateway token is configured, so anyone who can reach the port could read the project. ' +
        'Set MONORAG_GATEWAY_TOKEN (or gateway.tokens in monorag.json), bind to 127.0.0.1, or pass --insecure to serve without authentication.\n',
    );
  });

  it('names the host where it was set: MONORAG_GATEWAY_HOST, or gateway.host in monorag.json (a trial: both were blamed on --host)', async () => {
    const fromEnv = await runCli(['gateway', repo, '--port', '1'], { EMBEDDING_URL: embedder.url, MONORAG_GATEWAY_HOST: '0.0.0.0' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/^monorag: MONORAG_GATEWAY_HOST=0\.0\.0\.0: 0\.0\.0\.0 is not a loopback address and no gateway token is configured/);
    const configured = mkdtempSync(path.join(tmpdir(), 'monorag-gateway-host-'));
    try {
      writeFileSync(path.join(configured, 'monorag.json'), JSON.stringify({ gateway: { host: '0.0.0.0' } }));
      const fromFile = await runCli(['gateway', configured, '--port', '1'], { EMBEDDING_URL: embedder.url });
      expect(fromFile.code).toBe(2);
      expect(fromFile.stderr).toMatch(/^monorag: "gateway\.host": "0\.0\.0\.0" in \S+monorag\.json: 0\.0\.0\.0 is not a loopback address/);
      expect(fromFile.stderr).toContain(`in ${path.join(realpathSync(configured), 'monorag.json')}: `);
    } finally {
      rmSync(configured, { recursive: true, force: true });
    }
  });

  it('stops on SIGTERM with exit code 0, closing an open MCP session', async () => {
    const running = await startGatewayProcess(repo, { EMBEDDING_URL: embedder.url, MONORAG_LOG_LEVEL: 'info', MONORAG_LOG_FORMAT: 'json' });
    const client = new Client({ name: 'monorag-e2e-http', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
    expect((await client.listTools()).tools).toHaveLength(4);
    expect(await running.stop()).toBe(0);
    const closed = running.stderr().split('\n').filter((l) => l.includes('"msg":"MCP session closed"'));
    expect(closed).toHaveLength(1);
    expect(closed[0]).toContain('"why":"the gateway is shutting down"');
    await client.close();
  });
});

describe('monorag gateway: freshness while it watches', () => {
  it('GET /v1/status says what index_status says: a save being indexed is an update in progress, not a change nothing queued', async () => {
    // Each embedding request waits 3 s, so the run of a save lasts.
    const slow = await startFakeEmbeddingHttp('fake-hash-embedder', { delayMs: 3000 });
    const watched = makeGitRepo({ 'src/a.ts': tokenFile('tokA') });
    expect((await runCli(['index', watched, '--quiet'], { EMBEDDING_URL: slow.url })).code).toBe(0);
    const running = await startGatewayProcess(watched, { EMBEDDING_URL: slow.url }, [], { watch: true });
    try {
      const status = async (): Promise<Record<string, unknown>> => (await fetch(`${running.url}/v1/status`)).json() as Promise<Record<string, unknown>>;
      await until(async () => (await status()).stale === false, 'the catch-up run');
      const embedded = slow.texts();
      writeFileSync(path.join(watched, 'src/b.ts'), tokenFile('tokB'));
      await until(() => slow.texts() > embedded, 'the run of the save to be embedding');
      // Before, /v1/status counted the work tree as a server without a watcher does: the save was "1 changed
      // file(s) in the work tree are not queued for indexing (`monorag index` indexes them now; ...)".
      expect(await status()).toMatchObject({ pendingChanges: 0, unqueuedChanges: 0, indexing: true, stale: true, warning: 'Results may be out of date: an index update is in progress.' });
      await until(async () => (await status()).stale === false, 'the save in the index', 30_000);
      expect(await status()).toMatchObject({ files: 2, pendingChanges: 0, indexing: false });
    } finally {
      await running.stop();
      await slow.stop();
    }
  }, 90_000);
});
