import { cpSync, mkdtempSync, realpathSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '@monorag/store';
import { runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo, tokenFile } from './git-repo.js';

interface Report { files: number; added: number; changed: number; deleted: number; unchanged: number }

let embedder: FakeEmbeddingHttp;
let env: Record<string, string>;
beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
  env = { EMBEDDING_URL: embedder.url };
});
afterAll(async () => {
  await embedder?.stop();
});

/** A new empty directory for a shared data directory, outside every project. */
function freshDir(): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-shared-data-')));
}

async function index(repo: string, extraEnv: Record<string, string> = {}): Promise<Report> {
  const run = await runCli(['index', repo, '--json'], { ...env, ...extraEnv });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Report;
}

async function lexicalPaths(repo: string, query: string, extraEnv: Record<string, string> = {}): Promise<string[]> {
  const run = await runCli(['search', query, '--lexical', '--json', '--project', repo], { ...env, ...extraEnv });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { results: { path: string }[] }).results.map((r) => r.path);
}

/** Project roots recorded in the SQLite index file of `dataDir`. */
async function recordedRoot(dataDir: string): Promise<string | undefined> {
  const store = await openSqliteStore({ file: path.join(dataDir, 'index.sqlite') });
  try {
    return await store.getMeta('project.root');
  } finally {
    await store.close();
  }
}

describe('a data directory holds one project\'s index', () => {
  it('an absolute MONORAG_DATA_DIR used by a second project is refused for index, rebuild, search, status, symbols and serve; the first index keeps its files', async () => {
    const cfg = makeGitRepo({ 'src/a.ts': tokenFile('cfgTokenA'), 'src/b.ts': tokenFile('cfgTokenB'), 'README.md': '# cfg\n' });
    const other = makeGitRepo({ 'plain_dir.py': 'def plain_dir_function():\n    return 1\n' });
    const shared = { MONORAG_DATA_DIR: freshDir() };
    expect(await index(cfg, shared)).toMatchObject({ added: 3 });
    expect(await recordedRoot(shared.MONORAG_DATA_DIR)).toBe(cfg);

    const runs = {
      index: await runCli(['index', other, '--json'], { ...env, ...shared }),
      rebuild: await runCli(['index', other, '--rebuild', '--json'], { ...env, ...shared }),
      search: await runCli(['search', 'plain_dir_function', '--lexical', '--project', other], { ...env, ...shared }),
      status: await runCli(['status', '--project', other], { ...env, ...shared }),
      symbols: await runCli(['symbols', 'plain_dir_function', '--project', other], { ...env, ...shared }),
      serve: await runCli(['serve', other], { ...env, ...shared }),
      // The flag, not the environment, names the same directory.
      flag: await runCli(['search', 'x', '--lexical', '--project', other, '--data-dir', shared.MONORAG_DATA_DIR], env),
    };
    for (const [name, run] of Object.entries(runs)) {
      expect(run.code, `${name}: ${run.stderr}`).toBe(2);
      expect(run.stdout, name).toBe('');
      expect(run.stderr, name).toContain(`The index in ${shared.MONORAG_DATA_DIR} belongs to the project ${cfg}, not to ${other}`);
      expect(run.stderr, name).toContain('a relative one such as ".monorag" (the default) resolves inside each project');
      expect(run.stderr, name).not.toContain('unexpected error');
      // Where the data directory was set (a trial could not tell).
      expect(run.stderr, name).toContain(`not to ${other} (set by ${name === 'flag' ? '--data-dir' : 'MONORAG_DATA_DIR'}): `);
    }
    // Nothing of the first project's index was deleted or replaced.
    expect((await lexicalPaths(cfg, 'cfgTokenA', shared))[0]).toBe('src/a.ts');
    expect(await index(cfg, shared)).toMatchObject({ files: 3, added: 0, deleted: 0, unchanged: 3 });
    // With a relative data directory each project has its own index.
    expect(await index(other, { MONORAG_DATA_DIR: '.monorag' })).toMatchObject({ added: 1 });
    expect(await lexicalPaths(other, 'plain_dir_function', { MONORAG_DATA_DIR: '.monorag' })).toEqual(['plain_dir.py']);
  }, 120_000);

  it('a project moved or copied together with its .monorag/ keeps its index, which then records the new root', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('movedToken'), 'src/b.ts': tokenFile('otherToken') });
    await index(repo);
    const moved = `${repo}-moved`;
    renameSync(repo, moved);
    expect((await lexicalPaths(moved, 'movedToken'))[0]).toBe('src/a.ts');
    expect(await index(moved)).toMatchObject({ files: 2, added: 0, deleted: 0, unchanged: 2 });
    expect(await recordedRoot(path.join(moved, '.monorag'))).toBe(moved);

    const copy = `${moved}-copy`;
    cpSync(moved, copy, { recursive: true });
    expect(await index(copy)).toMatchObject({ files: 2, added: 0, deleted: 0, unchanged: 2 });
    expect((await lexicalPaths(moved, 'movedToken'))[0]).toBe('src/a.ts');
    expect(await recordedRoot(path.join(moved, '.monorag'))).toBe(moved);
    expect(await recordedRoot(path.join(copy, '.monorag'))).toBe(copy);
  }, 120_000);

  it('a project inside another whose data directory points into the outer project\'s .monorag/ cannot take its index over', async () => {
    const outer = makeGitRepo({ 'top.ts': tokenFile('topToken'), 'inner/deep.ts': tokenFile('deepToken') });
    const inner = path.join(outer, 'inner');
    // The inner one indexes first into what is the outer project's default data directory.
    expect(await index(inner, { MONORAG_DATA_DIR: path.join(outer, '.monorag') })).toMatchObject({ added: 1 });
    const run = await runCli(['index', outer, '--json'], env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`belongs to the project ${inner}, not to ${outer}`);
    expect(await lexicalPaths(inner, 'deepToken', { MONORAG_DATA_DIR: path.join(outer, '.monorag') })).toEqual(['deep.ts']);
  }, 120_000);
});

describe('a subdirectory of an indexed project', () => {
  it('search --project <subdirectory> names the indexed parent and suggests --project <it>, not a nested index', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('subToken'), 'README.md': '# r\n' });
    await index(repo);
    const sub = path.join(repo, 'src');
    for (const command of [['search', 'subToken', '--lexical'], ['status'], ['symbols', 'subToken']]) {
      const run = await runCli([...command, '--project', sub], env);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(`No index for ${sub} (looked for ${path.join(sub, '.monorag', 'index.sqlite')}).`);
      expect(run.stderr).toContain(`It lies inside ${repo}, which has an index (${path.join(repo, '.monorag', 'index.sqlite')}): give that project instead, \`--project ${repo}\` (\`--path src\` keeps a search to this directory).`);
      expect(run.stderr).not.toContain(`monorag index ${sub}`);
    }
    // The suggestion works.
    const suggested = await runCli(['search', 'subToken', '--lexical', '--json', '--project', repo, '--path', 'src'], env);
    expect(suggested.code, suggested.stderr).toBe(0);
    // A directory with no indexed parent still gets the plain advice.
    const lone = makeGitRepo({ 'x.ts': tokenFile('loneToken') });
    const plain = await runCli(['search', 'loneToken', '--lexical', '--project', lone], env);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(`Run \`monorag index ${lone}\` first.`);
  }, 120_000);

  it('with an absolute data directory holding the parent\'s index, the subdirectory is refused naming the parent', async () => {
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('absToken') });
    const shared = { MONORAG_DATA_DIR: freshDir() };
    await index(repo, shared);
    const sub = path.join(repo, 'src');
    const run = await runCli(['search', 'absToken', '--lexical', '--project', sub], { ...env, ...shared });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`belongs to the project ${repo}, not to ${sub}`);
    expect(run.stderr).toContain(`${sub} lies inside ${repo}: to use that index, give ${repo} as --project instead (a search's --path src keeps to this directory).`);
  }, 120_000);
});
