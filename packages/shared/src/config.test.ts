import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, settingSource } from './config.js';
import { MonoragError } from './errors.js';

function tempRoot(): string {
  return mkdtempSync(path.join(tmpdir(), 'monorag-config-'));
}

describe('loadConfig', () => {
  it('applies defaults', () => {
    const config = loadConfig({ projectRoot: tempRoot(), env: {} });
    expect(config.index.maxFileBytes).toBe(1024 * 1024);
    expect(config.embedding.url).toBeUndefined();
    expect(config.search.defaultLimit).toBe(10);
  });

  it('reads the log format from the environment (auto by default) and rejects an unknown one', () => {
    expect(loadConfig({ projectRoot: tempRoot(), env: {} }).logFormat).toBe('auto');
    expect(loadConfig({ projectRoot: tempRoot(), env: { MONORAG_LOG_FORMAT: 'json' } }).logFormat).toBe('json');
    // Level and format names are taken in any case from the environment.
    expect(loadConfig({ projectRoot: tempRoot(), env: { MONORAG_LOG_FORMAT: 'Pretty', MONORAG_LOG_LEVEL: 'INFO' } })).toMatchObject({ logFormat: 'pretty', logLevel: 'info' });
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_LOG_FORMAT: 'xml' } })).toThrowError(/"logFormat".*"auto"\|"json"\|"pretty".*environment/);
  });

  it('layers file < env < flags', () => {
    const root = tempRoot();
    writeFileSync(path.join(root, 'monorag.json'), JSON.stringify({ index: { maxFileBytes: 10 }, search: { defaultLimit: 3 } }));
    const config = loadConfig({
      projectRoot: root,
      env: { MONORAG_MAX_FILE_BYTES: '20', EMBEDDING_URL: 'http://127.0.0.1:9/' },
      overrides: { index: { maxFileBytes: 30 } },
    });
    expect(config.index.maxFileBytes).toBe(30);
    expect(config.search.defaultLimit).toBe(3);
    expect(config.embedding.url).toBe('http://127.0.0.1:9/');
  });

  it('reads a monorag.json that starts with a UTF-8 byte-order mark', () => {
    const root = tempRoot();
    writeFileSync(path.join(root, 'monorag.json'), `\uFEFF${JSON.stringify({ search: { defaultLimit: 4 } })}`);
    expect(loadConfig({ projectRoot: root, env: {} }).search.defaultLimit).toBe(4);
  });

  it('accepts only redis:// and rediss:// URLs for REDIS_URL (an http:// one would be taken for a unix socket)', () => {
    expect(loadConfig({ projectRoot: tempRoot(), env: { REDIS_URL: 'redis://127.0.0.1:6379' } }).queue.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ projectRoot: tempRoot(), env: { REDIS_URL: 'rediss://user:pw@redis.example:6380/1' } }).queue.redisUrl).toBe('rediss://user:pw@redis.example:6380/1');
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { REDIS_URL: 'http://127.0.0.1:6391' } })).toThrowError(
      'Invalid configuration value for "queue.redisUrl": must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379. It comes from the environment variable REDIS_URL; fix it there.',
    );
  });

  it('reads search.queryAdapter from monorag.json and MONORAG_QUERY_ADAPTER (default on)', () => {
    expect(loadConfig({ projectRoot: tempRoot(), env: {} }).search.queryAdapter).toBe(true);
    expect(loadConfig({ projectRoot: tempRoot(), env: { MONORAG_QUERY_ADAPTER: 'OFF' } }).search.queryAdapter).toBe(false);
    const root = tempRoot();
    writeFileSync(path.join(root, 'monorag.json'), JSON.stringify({ search: { queryAdapter: false } }));
    expect(loadConfig({ projectRoot: root, env: {} }).search.queryAdapter).toBe(false);
    expect(loadConfig({ projectRoot: root, env: { MONORAG_QUERY_ADAPTER: '1' } }).search.queryAdapter).toBe(true);
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_QUERY_ADAPTER: 'sometimes' } })).toThrowError(
      'Invalid configuration value for "search.queryAdapter": must be true or false (as text also 1 / 0, yes / no, y / n, on / off, enabled / disabled, in any case). It comes from the environment variable MONORAG_QUERY_ADAPTER; fix it there.',
    );
  });

  it('says the range of a port out of range (a trial got "expected a port number in decimal digits" for 70000)', () => {
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_GATEWAY_PORT: '70000' } })).toThrowError(
      'Invalid configuration value for "gateway.port": must be a port from 1 to 65535. It comes from the environment variable MONORAG_GATEWAY_PORT; fix it there.',
    );
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_GATEWAY_PORT: 'http' } })).toThrowError(/"gateway\.port": expected a port number in decimal digits\./);
  });

  it('settingSource names the source that set a key: flags, then the environment, then monorag.json, else the default', () => {
    const root = tempRoot();
    writeFileSync(path.join(root, 'monorag.json'), JSON.stringify({ gateway: { host: '0.0.0.0', port: 7800 } }));
    const key = ['gateway', 'host'];
    expect(settingSource(key, { projectRoot: root, env: {} })).toEqual({ kind: 'file', file: path.join(root, 'monorag.json') });
    expect(settingSource(key, { projectRoot: root, env: { MONORAG_GATEWAY_HOST: '::' } })).toEqual({ kind: 'env', variable: 'MONORAG_GATEWAY_HOST' });
    expect(settingSource(key, { projectRoot: root, env: { MONORAG_GATEWAY_HOST: '::' }, overrides: { gateway: { host: '10.0.0.1' } } })).toEqual({ kind: 'flag' });
    expect(settingSource(['gateway', 'maxSessions'], { projectRoot: root, env: {} })).toEqual({ kind: 'default' });
    // A flag left unset (commander gives undefined) is no source.
    expect(settingSource(['gateway', 'port'], { projectRoot: root, env: {}, overrides: { gateway: { port: undefined } } })).toEqual({ kind: 'file', file: path.join(root, 'monorag.json') });
  });

  it('says which values MONORAG_REDACT_SECRETS accepts (a trial got "Invalid input")', () => {
    expect(loadConfig({ projectRoot: tempRoot(), env: { MONORAG_REDACT_SECRETS: 'Off' } }).index.redactSecrets).toBe(false);
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_REDACT_SECRETS: 'maybe' } })).toThrowError(
      'Invalid configuration value for "index.redactSecrets": must be true or false (as text also 1 / 0, yes / no, y / n, on / off, enabled / disabled, in any case). It comes from the environment variable MONORAG_REDACT_SECRETS; fix it there.',
    );
  });

  it('names the bad key and where to fix it', () => {
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_MAX_FILE_BYTES: 'lots' } })).toThrowError(
      /Invalid configuration value for "index.maxFileBytes"/,
    );
    const root = tempRoot();
    writeFileSync(path.join(root, 'monorag.json'), '{ nope');
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(MonoragError);
  });

  it('names the source of a bad value: the flags, the environment or the file, whichever set it', () => {
    expect(() => loadConfig({ projectRoot: tempRoot(), env: { MONORAG_MAX_FILE_BYTES: 'lots' } })).toThrowError(
      /"index.maxFileBytes": .*\. It comes from the environment variable MONORAG_MAX_FILE_BYTES; fix it there\.$/,
    );
    const root = tempRoot();
    writeFileSync(path.join(root, 'monorag.json'), JSON.stringify({ search: { defaultLimit: 'ten' } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(`It comes from ${path.join(root, 'monorag.json')}; fix it there.`);
    // A flag wins over the file, so the flag is the source to fix.
    expect(() => loadConfig({ projectRoot: root, env: {}, overrides: { search: { defaultLimit: 0 } } })).toThrowError(
      /"search.defaultLimit": .*It comes from the command-line flags; fix it there\./,
    );
  });

  it('puts the managed embedder\'s state in the user\'s cache directory unless told otherwise', () => {
    const root = tempRoot();
    expect(loadConfig({ projectRoot: root, env: { HOME: '/home/ann' } }).embedding.stateDir).toBe('/home/ann/.cache/monorag/embedder');
    expect(loadConfig({ projectRoot: root, env: { HOME: '/home/ann', XDG_CACHE_HOME: '/var/cache/ann' } }).embedding.stateDir).toBe('/var/cache/ann/monorag/embedder');
    expect(loadConfig({ projectRoot: root, env: {} }).embedding.stateDir).toBeUndefined();
    writeFileSync(path.join(root, 'monorag.json'), JSON.stringify({ embedding: { stateDir: '/srv/embedder' } }));
    expect(loadConfig({ projectRoot: root, env: { HOME: '/home/ann' } }).embedding.stateDir).toBe('/srv/embedder');
    expect(loadConfig({ projectRoot: root, env: { HOME: '/home/ann', MONORAG_EMBEDDER_DIR: '/tmp/e' } }).embedding.stateDir).toBe('/tmp/e');
  });

  it('rejects a file that is not an object, a section that is not an object, and a default limit over the maximum', () => {
    const root = tempRoot();
    const file = path.join(root, 'monorag.json');
    for (const [text, what] of [['null', 'null'], ['"x"', 'a string'], ['[]', 'an array'], ['5', 'a number']] as const) {
      writeFileSync(file, text);
      expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(`${file} must hold a JSON object such as {"index": {"maxFileBytes": 2097152}}; it holds ${what}.`);
    }
    rmSync(file);
    mkdirSync(file);
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(
      `${file} is a directory; monorag reads its configuration from a JSON file of that name. Replace it with a file or remove it.`,
    );
    rmSync(file, { recursive: true });
    for (const section of ['5', 'null', '"big"']) {
      writeFileSync(file, `{"index": ${section}}`);
      // The environment sets a key inside "index", but the bad value is the file's.
      expect(() => loadConfig({ projectRoot: root, env: { MONORAG_MAX_FILE_BYTES: '20' } })).toThrowError(/Invalid configuration value for "index": .*It comes from .*monorag\.json; fix it there\.$/);
    }
    writeFileSync(file, JSON.stringify({ search: { defaultLimit: 100 } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(
      /Invalid configuration value for "search.defaultLimit": search.defaultLimit \(100\) must not exceed search.maxLimit \(50\); lower the one or raise the other/,
    );
    writeFileSync(file, JSON.stringify({ search: { maxLimit: 5 } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(/search.defaultLimit \(10\) must not exceed search.maxLimit \(5\)/);
    writeFileSync(file, JSON.stringify({ search: { maxLimit: 100_000 } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(/Invalid configuration value for "search.maxLimit": .*4096/);
    writeFileSync(file, JSON.stringify({ search: { candidatePool: 5000 } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(/Invalid configuration value for "search.candidatePool": .*4096/);
    writeFileSync(file, JSON.stringify({ search: { defaultLimit: 'ten' } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(/Invalid configuration value for "search.defaultLimit": expected a whole number/);
    writeFileSync(file, JSON.stringify({ search: { defaultLimit: 100, maxLimit: 100 } }));
    expect(loadConfig({ projectRoot: root, env: {} }).search.defaultLimit).toBe(100);
  });

  it('takes numbers from the environment in decimal digits only (trial: MONORAG_MAX_FILE_BYTES=0x10 read 16 bytes and emptied an index)', () => {
    const root = tempRoot();
    const config = loadConfig({ projectRoot: root, env: { MONORAG_MAX_FILE_BYTES: '2000', MONORAG_GATEWAY_PORT: '9001', MONORAG_CACHE_RETENTION_DAYS: '7.5' } });
    expect([config.index.maxFileBytes, config.gateway.port, config.index.cacheRetentionDays]).toEqual([2000, 9001, 7.5]);
    for (const bad of ['0x10', '1e3', ' 2000', '+5', '2_000']) {
      expect(() => loadConfig({ projectRoot: root, env: { MONORAG_MAX_FILE_BYTES: bad } }), bad).toThrowError(
        /Invalid configuration value for "index.maxFileBytes": expected a whole number in decimal digits/,
      );
    }
    expect(() => loadConfig({ projectRoot: root, env: { MONORAG_GATEWAY_PORT: '1e3' } })).toThrowError(/"gateway.port": expected a port number in decimal digits/);
    expect(() => loadConfig({ projectRoot: root, env: { MONORAG_CACHE_RETENTION_DAYS: '0x1' } })).toThrowError(/"index.cacheRetentionDays": expected a number of days in decimal digits/);
  });

  it('names every unknown key at once, each with its nearest valid key (trial: only the first was named, one fix-and-rerun per typo)', () => {
    const root = tempRoot();
    const file = path.join(root, 'monorag.json');
    writeFileSync(file, JSON.stringify({ serch: { defaultLimit: 3 }, index: { maxFileByte: 5 } }));
    let message = '';
    try {
      loadConfig({ projectRoot: root, env: {} });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith(`${file}: unknown keys `)).toBe(true);
    expect(message).toContain('Remove or rename them; ');
    expect(message).toContain('"serch" (did you mean "search"?)');
    expect(message).toContain('"index.maxFileByte" (did you mean "index.maxFileBytes"?)');
    expect(message).toContain('the keys allowed at the top level are: ');
    expect(message).toContain('the keys allowed in "index" are: ');
  });

  it('names every invalid value at once, each with its source, after the unknown keys (trial: one fault per run)', () => {
    const root = tempRoot();
    const file = path.join(root, 'monorag.json');
    writeFileSync(file, JSON.stringify({ index: { maxFileBytes: 'big' }, logLevel: 'loud', store: { qdrant: { ulr: 'x' } } }));
    let message = '';
    try {
      loadConfig({ projectRoot: root, env: { MONORAG_REDACT_SECRETS: 'maybe' } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith(`${file}: unknown key "store.qdrant.ulr". Remove or rename it; `)).toBe(true);
    expect(message).toContain(`Invalid configuration value for "index.maxFileBytes": `);
    expect(message).toContain(`Invalid configuration value for "logLevel": `);
    expect(message).toContain(`Invalid configuration value for "index.redactSecrets": `);
    expect(message).toContain('It comes from the environment variable MONORAG_REDACT_SECRETS; fix it there.');
    expect(message.split('Invalid configuration value for ').length).toBe(4);
  });

  it('rejects an unknown key in monorag.json, naming the file and the key and suggesting the nearest valid one', () => {
    const root = tempRoot();
    const file = path.join(root, 'monorag.json');
    writeFileSync(file, JSON.stringify({ embedding: { ur: 'http://127.0.0.1:9/' } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(
      `${file}: unknown key "embedding.ur" (did you mean "embedding.url"?). Remove or rename it; the keys allowed in "embedding" are: url, python, stateDir, idleSeconds, batchSize, timeoutMs, startupSeconds.`,
    );
    writeFileSync(file, JSON.stringify({ datadir: 'x' }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(`${file}: unknown key "datadir" (did you mean "dataDir"?).`);
    writeFileSync(file, JSON.stringify({ store: { qdrant: { url: 'http://q:6333', colour: 'red' } } }));
    expect(() => loadConfig({ projectRoot: root, env: {} })).toThrowError(
      `${file}: unknown key "store.qdrant.colour". Remove or rename it; the keys allowed in "store.qdrant" are: url, apiKey, project, collectionPrefix.`,
    );
    const error = (() => {
      try {
        loadConfig({ projectRoot: root, env: {} });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(MonoragError);
    expect((error as MonoragError).code).toBe('CONFIG_INVALID');
  });
});
