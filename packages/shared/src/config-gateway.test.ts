import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

function tempRoot(): string {
  return mkdtempSync(path.join(tmpdir(), 'monorag-config-gateway-'));
}

const TOKEN_A = 'a'.repeat(32);
const TOKEN_B = 'b'.repeat(32);

describe('loadConfig: gateway', () => {
  it('binds to loopback on port 7700 with no tokens by default', () => {
    expect(loadConfig({ projectRoot: tempRoot(), env: {} }).gateway).toEqual({
      host: '127.0.0.1', port: 7700, tokens: [], rateLimit: 300, rateWindowSeconds: 60, maxSessions: 64, sessionIdleSeconds: 1800,
    });
  });

  it('reads host, port, rate limit, session cap and comma-separated tokens from the environment', () => {
    const env = {
      MONORAG_GATEWAY_HOST: '0.0.0.0', MONORAG_GATEWAY_PORT: '9001', MONORAG_GATEWAY_TOKEN: ` ${TOKEN_A} , ${TOKEN_B},`,
      MONORAG_GATEWAY_RATE_LIMIT: '5', MONORAG_GATEWAY_MAX_SESSIONS: '3',
    };
    expect(loadConfig({ projectRoot: tempRoot(), env }).gateway).toMatchObject({ host: '0.0.0.0', port: 9001, tokens: [TOKEN_A, TOKEN_B], rateLimit: 5, maxSessions: 3 });
  });

  it('takes tokens as a list from monorag.json, flags win over the environment for the port', () => {
    const root = tempRoot();
    writeFileSync(path.join(root, 'monorag.json'), JSON.stringify({ gateway: { tokens: [TOKEN_A] } }));
    const config = loadConfig({ projectRoot: root, env: { MONORAG_GATEWAY_PORT: '9001' }, overrides: { gateway: { port: 9002 } } });
    expect(config.gateway).toMatchObject({ tokens: [TOKEN_A], port: 9002 });
  });

  it('refuses a short token and a port out of range, naming the key', () => {
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_GATEWAY_TOKEN: 'short' } })).toThrowError(
      'Invalid configuration value for "gateway.tokens.0": each token must be at least 16 characters long (e.g. `openssl rand -hex 32`). It comes from the environment variable MONORAG_GATEWAY_TOKEN; fix it there.',
    );
    const root = tempRoot();
    writeFileSync(path.join(root, 'monorag.json'), JSON.stringify({ gateway: { tokens: ['a'.repeat(20), 'short'] } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(/"gateway\.tokens\.1": each token must be at least 16 characters long .*It comes from .*monorag\.json; fix it there\./);
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_GATEWAY_PORT: '70000' } })).toThrowError(
      /"gateway\.port".*MONORAG_GATEWAY_PORT/,
    );
  });
});
