import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTokenProject } from '@monorag/indexer/queue';
import { runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';

interface SecretsStatus { secrets: { spans: number; files: number; scanner: string | null } }

let embedder: FakeEmbeddingHttp;
beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
});
afterAll(async () => {
  await embedder?.stop();
});

describe('monorag status names the secret scanner the index was redacted with', () => {
  it('a scanner after a redacting run, "redaction off" after one with index.redactSecrets false', async () => {
    const { root } = writeTokenProject();
    const env = { EMBEDDING_URL: embedder.url };
    expect((await runCli(['index', root, '--quiet'], env)).code).toBe(0);
    const json = JSON.parse((await runCli(['status', '--project', root, '--json'], env)).stdout) as SecretsStatus;
    expect(json.secrets).toMatchObject({ spans: 1, files: 1, scanner: expect.stringMatching(/^secretlint-/) });
    expect((await runCli(['status', '--project', root], env)).stdout).toContain(`Secrets redacted: 1 in 1 file (github 1): src/deploy.ts (scanner ${json.secrets.scanner})\n`);

    const off = { ...env, MONORAG_REDACT_SECRETS: 'false' };
    expect((await runCli(['index', root, '--quiet'], off)).code).toBe(0);
    expect((JSON.parse((await runCli(['status', '--project', root, '--json'], off)).stdout) as SecretsStatus).secrets).toMatchObject({ spans: 0, scanner: 'off' });
    expect((await runCli(['status', '--project', root], off)).stdout).toContain(
      'Secrets redacted: none (redaction off: index.redactSecrets was false, secrets are indexed as written)\n',
    );
  }, 60_000);
});
