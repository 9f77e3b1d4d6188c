import { afterEach, describe, expect, it } from 'vitest';
import type { HealthProbes } from './health-route.js';
import { serveTestGateway, type TestGateway } from './test-gateway.js';

const TOKEN = 'health-test-token-0123456789abcdef';

/** An embedder that answers at a loopback port and a store whose probe throws naming its address, as a managed embedder and an unreachable Qdrant would. */
const probes: HealthProbes = {
  store: async () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:6333')),
  embedder: async () => ({ ok: true, detail: 'managed embedder at http://127.0.0.1:39151 answers', publicDetail: 'managed embedder answers' }),
};

let gateway: TestGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function health(overrides: Parameters<typeof serveTestGateway>[0], token?: string): Promise<{ status: number; body: unknown }> {
  gateway = await serveTestGateway({ probes, ...overrides });
  const response = await fetch(`${gateway.url}/health`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: await response.json() };
}

const internal = {
  status: 'degraded',
  uptimeSeconds: 0,
  store: { ok: false, detail: 'connect ECONNREFUSED 10.0.0.5:6333' },
  embedder: { ok: true, detail: 'managed embedder at http://127.0.0.1:39151 answers' },
};

describe('GET /health: internal addresses', () => {
  it('bound beyond loopback, shows a client without a token no URL, port or probe error', async () => {
    expect(await health({ host: '0.0.0.0', tokens: [TOKEN] })).toEqual({
      status: 503,
      body: {
        status: 'degraded',
        uptimeSeconds: 0,
        store: { ok: false, detail: "the probe failed; GET /v1/status with a token, or the gateway's log, says why" },
        embedder: { ok: true, detail: 'managed embedder answers' },
      },
    });
  });

  it('bound beyond loopback, shows a client with a valid token the details', async () => {
    expect(await health({ host: '0.0.0.0', tokens: [TOKEN] }, TOKEN)).toEqual({ status: 503, body: internal });
  });

  it('bound to loopback, shows every client the details', async () => {
    expect(await health({ host: '127.0.0.1', tokens: [TOKEN] })).toEqual({ status: 503, body: internal });
  });

  it('shows a detail that has no public form as it is', async () => {
    const plain: HealthProbes = { store: async () => ({ ok: true, detail: 'sqlite: 1 file, 1 chunk' }), embedder: async () => ({ ok: true, detail: 'managed embedder not running' }) };
    expect(await health({ host: '0.0.0.0', tokens: [TOKEN], probes: plain })).toEqual({
      status: 200,
      body: { status: 'ok', uptimeSeconds: 0, store: { ok: true, detail: 'sqlite: 1 file, 1 chunk' }, embedder: { ok: true, detail: 'managed embedder not running' } },
    });
  });

  it('in queue mode, a file-job queue that does not answer makes the gateway degraded (200: searches still work)', async () => {
    const queued: HealthProbes = {
      store: async () => ({ ok: true, detail: 'sqlite: 1 file, 1 chunk' }),
      embedder: async () => ({ ok: true, detail: 'managed embedder not running' }),
      queue: async () => ({ ok: false, detail: 'monorag-index-p could not be read: Redis did not answer within 2 s', publicDetail: 'the file-job queue does not answer' }),
    };
    expect(await health({ host: '0.0.0.0', tokens: [TOKEN], probes: queued })).toEqual({
      status: 200,
      body: {
        status: 'degraded', uptimeSeconds: 0, store: { ok: true, detail: 'sqlite: 1 file, 1 chunk' }, embedder: { ok: true, detail: 'managed embedder not running' },
        queue: { ok: false, detail: 'the file-job queue does not answer' },
      },
    });
  });
});
