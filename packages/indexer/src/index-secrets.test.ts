import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexProject } from './index-project.js';
import { REQUIRED_SCANNER_META, SECRET_SCANNER_META, secretScannerOf } from './redact-file-text.js';
import { openTestIndex } from './test-index.js';

/** Fake tokens, built at run time so this file holds no literal a scanner flags. */
const body = (n: number): string => Array.from({ length: n }, (_, i) => 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'[(i * 7 + 3) % 57]).join('');
const TOKEN = ['gh', 'p_', body(36)].join('');
const STRIPE = ['sk', '_live_', body(24)].join('');
const SOURCE = (token: string): string =>
  ['/** The deploy client. */', 'export function deployClient(): Client {', `  return new Client({ token: "${token}", billing: "${STRIPE}" });`, '}', ''].join('\n');

/** A real git repository with one file holding secrets and one without; the fake embedder. */
async function secretRepo() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-idx-secrets-')));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'deploy.ts'), SOURCE(TOKEN));
  writeFileSync(path.join(root, 'src', 'plain.ts'), 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  return openTestIndex(root);
}

describe('indexProject and secrets', () => {
  it('indexes a file with its secrets redacted: chunks and FTS hold the placeholder, the report and manifest count them', async () => {
    const base = await secretRepo();
    const { store } = base;
    const report = await indexProject(base);
    expect(report).toMatchObject({
      files: 2, added: 2,
      redacted: [{ path: 'src/deploy.ts', secrets: { github: 1, stripe: 1 } }],
      secrets: { files: 1, spans: 2, byRule: { github: 1, stripe: 1 } },
    });
    expect(JSON.stringify(report)).not.toContain(TOKEN);
    const chunks = await store.chunksOfFile('src/deploy.ts');
    const content = chunks.map((c) => c.content).join('\n');
    expect(content).toContain('return new Client({ token: "[REDACTED:github]", billing: "[REDACTED:stripe]" });');
    expect(content).not.toContain(TOKEN);
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 4 });
    expect(await store.searchLexical(TOKEN, { limit: 10 })).toEqual([]);
    expect(await store.searchLexical(body(36), { limit: 10 })).toEqual([]);
    expect((await store.searchLexical('REDACTED github', { limit: 10 })).map((h) => h.chunk.path)).toEqual(['src/deploy.ts']);
    expect((await store.getFile('src/deploy.ts'))?.secrets).toEqual({ github: 1, stripe: 1 });
    expect((await store.getFile('src/plain.ts'))?.secrets).toBeUndefined();
    await store.close();
  });

  it('re-indexes a file whose secret was edited (the content hash is of the real text), and indexes secrets as written when redaction is off', async () => {
    const base = await secretRepo();
    const { store, root } = base;
    await indexProject(base);
    writeFileSync(path.join(root, 'src', 'deploy.ts'), SOURCE(['gh', 'p_', body(35), 'Z'].join('')));
    expect(await indexProject(base)).toMatchObject({ changed: 1, unchanged: 1, secrets: { files: 1, spans: 2 } });

    // Turning redaction off re-chunks the redacted file although its content is unchanged.
    writeFileSync(path.join(root, 'src', 'deploy.ts'), SOURCE(TOKEN));
    await indexProject(base);
    expect(await indexProject({ ...base, redactSecrets: false })).toMatchObject({ changed: 1, unchanged: 1, redacted: [] });
    expect((await store.chunksOfFile('src/deploy.ts')).map((c) => c.content).join('\n')).toContain(TOKEN);
    expect((await store.getFile('src/deploy.ts'))?.secrets).toBeUndefined();
    // And back on: redacted again with no edit.
    expect(await indexProject(base)).toMatchObject({ changed: 1, unchanged: 1, secrets: { spans: 2 } });
    expect((await store.chunksOfFile('src/deploy.ts')).map((c) => c.content).join('\n')).not.toContain(TOKEN);
    await store.close();
  });

  it('a full run after index.redactSecrets changed makes its scanner the one queue workers must use, replacing a whole-tree enqueue\'s requirement; a run limited to paths does not', async () => {
    const base = await secretRepo();
    const { store } = base;
    await indexProject(base);
    // A whole-tree enqueue with redaction on required it of every worker.
    await store.setMeta(REQUIRED_SCANNER_META, secretScannerOf(true));
    await indexProject({ ...base, redactSecrets: false, paths: ['src/plain.ts'] });
    expect(await store.getMeta(REQUIRED_SCANNER_META)).toBe(secretScannerOf(true));
    await indexProject({ ...base, redactSecrets: false });
    expect(await store.getMeta(SECRET_SCANNER_META)).toBe('off');
    expect(await store.getMeta(REQUIRED_SCANNER_META)).toBe('off');
    await store.close();
  });

  it('a full run on an index without a queue requirement records none', async () => {
    const base = await secretRepo();
    await indexProject({ ...base, redactSecrets: false });
    expect(await base.store.getMeta(REQUIRED_SCANNER_META)).toBeUndefined();
    await base.store.close();
  });
});
