import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IndexReport } from '@monorag/indexer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { startTestEmbeddingServer, type TestEmbeddingServer } from './embedding-server.js';
import { FIXTURE_FILES, makeFixtureRepo } from './fixture-repo.js';

type Report = IndexReport;

let embedder: TestEmbeddingServer;
let env: Record<string, string>;

beforeAll(async () => {
  embedder = await startTestEmbeddingServer();
  env = { EMBEDDING_URL: embedder.url };
});

afterAll(async () => {
  await embedder?.stop();
});

async function index(repo: string, ...flags: string[]): Promise<Report> {
  const run = await runCli(['index', repo, '--json', ...flags], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Report;
}

async function lexical(repo: string, query: string): Promise<Array<{ path: string; startLine: number; endLine: number }>> {
  const run = await runCli(['search', query, '--lexical', '--json', '--project', repo], env);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { results: Array<{ path: string; startLine: number; endLine: number }> }).results;
}

describe('monorag index is incremental', () => {
  it('embeds nothing for an unchanged tree, only the changed file after an edit, and drops deleted files', async () => {
    const repo = makeFixtureRepo();
    const first = await index(repo);
    expect(first).toMatchObject({ files: 5, added: 5, changed: 0, deleted: 0, unchanged: 0 });
    expect(first.chunksEmbedded).toBe(first.totalChunks);

    const second = await index(repo);
    expect(second).toMatchObject({ files: 5, added: 0, changed: 0, deleted: 0, unchanged: 5, chunksEmbedded: 0, chunksWritten: 0 });

    appendFileSync(path.join(repo, 'src/slug.ts'), '\n/** Turns dashes back into spaces. */\nexport function unslugify(slug: string): string {\n  return slug.replace(/-/g, " ");\n}\n');
    const third = await index(repo);
    expect(third).toMatchObject({ files: 5, added: 0, changed: 1, deleted: 0, unchanged: 4 });
    expect(third.chunksEmbedded).toBeGreaterThanOrEqual(1);
    expect(third.chunksEmbedded).toBeLessThanOrEqual(third.chunksWritten);
    expect((await lexical(repo, 'unslugify'))[0]).toMatchObject({ path: 'src/slug.ts' });

    rmSync(path.join(repo, 'tools/ini.py'));
    const fourth = await index(repo);
    expect(fourth).toMatchObject({ files: 4, deleted: 1, unchanged: 4, chunksEmbedded: 0 });
    expect(fourth.totalChunks).toBeLessThan(third.totalChunks);
    expect((await lexical(repo, 'parse_ini sections')).map((r) => r.path)).not.toContain('tools/ini.py');
  });

  it('--rebuild builds a new index beside the old one and swaps it in when done', async () => {
    const repo = makeFixtureRepo();
    const first = await index(repo);
    const rebuilt = await index(repo, '--rebuild');
    // Every chunk text was embedded for the old index: the rebuild takes the vectors from its cache.
    expect(rebuilt).toMatchObject({ files: 5, added: 5, unchanged: 0, totalChunks: first.totalChunks, chunksEmbedded: 0, chunksFromCache: first.totalChunks });
    expect(existsSync(path.join(repo, '.monorag', 'index.sqlite.rebuild'))).toBe(false);
    expect((await lexical(repo, 'slugify'))[0]).toMatchObject({ path: 'src/slug.ts' });
  });

  it('two concurrent rebuilds take turns; --rebuild with --paths is refused; a killed rebuild\'s file is cleaned up', async () => {
    const repo = makeFixtureRepo();
    const first = await index(repo);
    const runs = await Promise.all([runCli(['index', repo, '--json', '--rebuild'], env), runCli(['index', repo, '--json', '--rebuild'], env)]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ files: 5, added: 5, totalChunks: first.totalChunks, chunksEmbedded: 0 });
    }
    const refused = await runCli(['index', repo, '--rebuild', '--paths', 'src'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--rebuild builds the whole tree and cannot be combined with --paths');
    // What a rebuild killed mid-run leaves behind goes with the next run.
    writeFileSync(path.join(repo, '.monorag', 'index.sqlite.rebuild'), 'partial');
    expect(await index(repo)).toMatchObject({ files: 5, unchanged: 5 });
    expect(existsSync(path.join(repo, '.monorag', 'index.sqlite.rebuild'))).toBe(false);
  });

  it('the text report lists skipped files with the reason, and counts moves', async () => {
    const repo = makeFixtureRepo();
    writeFileSync(path.join(repo, 'src/bundle.js'), Array.from({ length: 600 }, (_, i) => `function f${i}(a){return a+${i}}`).join(';'));
    const first = await runCli(['index', repo], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('  skipped: src/bundle.js (minified)\n');
    mkdirSync(path.join(repo, 'lib'));
    writeFileSync(path.join(repo, 'lib/cache.ts'), FIXTURE_FILES['src/lru.ts']!);
    rmSync(path.join(repo, 'src/lru.ts'));
    const second = await runCli(['index', repo], env);
    expect(second.stdout).toContain('(1 added of which 1 moved with their vectors, 0 changed, 1 deleted');
  });

  it('moves a renamed file without embedding it again: the new path is indexed, the old path is gone', async () => {
    const repo = makeFixtureRepo();
    const before = await index(repo);
    mkdirSync(path.join(repo, 'lib'));
    writeFileSync(path.join(repo, 'lib/cache.ts'), FIXTURE_FILES['src/lru.ts']!);
    rmSync(path.join(repo, 'src/lru.ts'));
    const report = await index(repo);
    expect(report).toMatchObject({ files: 5, added: 1, deleted: 1, unchanged: 4, moved: 1, chunksEmbedded: 0, totalChunks: before.totalChunks });
    expect(report.chunksWritten).toBeGreaterThan(0);
    expect((await lexical(repo, 'LruCache')).map((r) => r.path)).toEqual(expect.arrayContaining(['lib/cache.ts']));
    expect((await lexical(repo, 'LruCache')).map((r) => r.path)).not.toContain('src/lru.ts');
    // A move to another language chunks differently: that file is embedded anew.
    writeFileSync(path.join(repo, 'lib/cache.js'), FIXTURE_FILES['src/lru.ts']!);
    rmSync(path.join(repo, 'lib/cache.ts'));
    const retyped = await index(repo);
    expect(retyped).toMatchObject({ added: 1, deleted: 1, moved: 0 });
    expect(retyped.chunksEmbedded).toBeGreaterThan(0);
  });
});

describe('monorag index and search handle bad input', () => {
  it('names a path that does not exist, without a stack trace, as a bad argument (exit 2, like a file given as [path])', async () => {
    const run = await runCli(['index', '/no/such/dir'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^monorag: \[path\]: \/no\/such\/dir does not exist/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('indexes an empty repository to an empty index', async () => {
    const repo = makeFixtureRepo({});
    expect(await index(repo)).toMatchObject({ files: 0, totalChunks: 0 });
    expect(await lexical(repo, 'anything')).toEqual([]);
  });

  it('indexes invalid UTF-8, CRLF and BOM files with exact line numbers', async () => {
    const repo = makeFixtureRepo({ 'a.txt': 'x' });
    writeFileSync(path.join(repo, 'latin.py'), Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\n\ndef brewCoffee():\n    return 1\n')]));
    writeFileSync(path.join(repo, 'crlf.js'), '\ufeff// header\r\n\r\nfunction steamMilk() {\r\n  return 2;\r\n}\r\n');
    const report = await index(repo);
    expect(report).toMatchObject({ files: 3 });
    const brew = await lexical(repo, 'brewCoffee');
    expect(brew[0]).toMatchObject({ path: 'latin.py' });
    expect(brew[0]!.endLine).toBe(4);
    const milk = await lexical(repo, 'steamMilk');
    expect(milk[0]).toMatchObject({ path: 'crlf.js' });
    expect(milk[0]!.endLine).toBe(5);
  });

  it('skips an unreadable file, says why, and indexes the rest', async () => {
    // root reads any file, so as root the CLI runs as the unprivileged user `nobody` for this test.
    const asRoot = process.getuid?.() === 0;
    const repo = makeFixtureRepo();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-unreadable-data-'));
    chmodSync(dataDir, 0o777);
    chmodSync(repo, 0o755);
    for (const dir of ['src', 'tools']) chmodSync(path.join(repo, dir), 0o755);
    chmodSync(path.join(repo, 'src/slug.ts'), 0o000);
    const run = await runCli(['index', repo, '--json', '--data-dir', dataDir], env, asRoot ? { uid: 65534, gid: 65534 } : {});
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.files).toBe(4);
    expect(report.skipped).toContainEqual({ path: 'src/slug.ts', reason: 'unreadable', detail: 'EACCES' });
  });

  it('a project the user cannot write to gets a message suggesting --data-dir, not an internal error', async () => {
    const asRoot = process.getuid?.() === 0;
    const repo = makeFixtureRepo();
    chmodSync(repo, 0o555);
    try {
      const run = await runCli(['index', repo], env, asRoot ? { uid: 65534, gid: 65534 } : {});
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Cannot create the index directory ${path.join(repo, '.monorag')} (EACCES)`);
      expect(run.stderr).toContain('Pass --data-dir');
      expect(run.stderr).not.toContain('unexpected error');
    } finally {
      chmodSync(repo, 0o755);
    }
  });

  it('a damaged index file: commands say to rebuild, and --rebuild builds it anew without its cache', async () => {
    const repo = makeFixtureRepo();
    await index(repo);
    const file = path.join(repo, '.monorag', 'index.sqlite');
    for (const suffix of ['-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    writeFileSync(file, Buffer.alloc(8192, 0x41));
    const search = await runCli(['search', 'slugify', '--lexical', '--project', repo], env);
    expect(search.code).toBe(1);
    expect(search.stderr).toContain(`The index ${file} is damaged`);
    expect(search.stderr).toContain('run `monorag index --rebuild`');
    const rebuilt = await runCli(['index', repo, '--rebuild', '--json'], env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toContain('the old index could not be read; the rebuild embeds every chunk anew');
    // The warning gives SQLite's reason, not the advice to run the rebuild that is running.
    expect(rebuilt.stderr).not.toContain('--rebuild');
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ files: Object.keys(FIXTURE_FILES).length, skipped: [] });
    expect(existsSync(`${file}.rebuild`)).toBe(false);
    expect((await lexical(repo, 'slugify')).length).toBeGreaterThan(0);
  });

  it('a --data-dir that cannot be created says why at once (a file in the way; /proc, where a recursive mkdir spun forever)', async () => {
    const repo = makeFixtureRepo();
    const underFile = path.join(repo, 'src', 'slug.ts', 'index');
    const blocked = await runCli(['index', repo, '--data-dir', underFile], env);
    expect(blocked.code).toBe(2); // the path given is at fault, like the other data-dir refusals (trial: exit 1)
    expect(blocked.stderr).toContain(`Cannot create the index directory ${underFile} (ENOTDIR): ${path.join(repo, 'src', 'slug.ts')} is a file, not a directory. Choose a writable directory with --data-dir`);
    expect(blocked.stderr).not.toContain('unexpected error');
    if (existsSync('/proc/self')) {
      const proc = await runCli(['index', repo, '--data-dir', '/proc/monorag-test/index'], env);
      expect(proc.code).toBe(1);
      expect(proc.stderr).toContain('Cannot create the index directory /proc/monorag-test/index (ENOENT): the file system refuses a new directory /proc/monorag-test.');
    }
  });

  it('--paths: a misspelt path is named in a warning, an absolute path inside the project works, --hook without --from-queue is refused', async () => {
    const repo = makeFixtureRepo();
    await index(repo);
    writeFileSync(path.join(repo, 'src', 'slug.ts'), 'export const slugifiedAgain = 1;\n');
    const run = await runCli(['index', repo, '--json', '--paths', path.join(repo, 'src', 'slug.ts'), 'src/slgu.ts'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ mode: 'paths', changed: 1 });
    expect(run.stderr).toContain(`monorag: warning: --paths src/slgu.ts names no file or directory of ${repo} and nothing in its index; check the spelling`);
    expect(run.stderr).not.toContain('--paths src/slug.ts');
    // An existing file the ignore rules leave out is named too (a trial's `--paths build/server.js` reported nothing).
    writeFileSync(path.join(repo, '.gitignore'), 'build/\n');
    mkdirSync(path.join(repo, 'build'), { recursive: true });
    writeFileSync(path.join(repo, 'build', 'server.js'), 'export const built = 1;\n');
    const ignored = await runCli(['index', repo, '--json', '--paths', 'build/server.js', '.monorag/index.sqlite', 'src/slug.ts'], env);
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(ignored.stderr.split('\n').filter((line) => line.startsWith('monorag: warning:'))).toEqual([
      'monorag: warning: --paths build/server.js is left out by the ignore rules (.gitignore, .git/info/exclude, .monoragignore, or the defaults for dependencies, builds, secrets and .git), so it is not indexed; a `!build/server.js` line in .monoragignore keeps it.',
      "monorag: warning: --paths .monorag/index.sqlite is left out by the ignore rules (.gitignore, .git/info/exclude, .monoragignore, or the defaults for dependencies, builds, secrets and .git), so it is not indexed; it is monorag's own data directory, never indexed.",
    ]);
    // A path that leaves the root gets one error, not also a warning that it names no file; relative or
    // absolute, it is named the same way.
    for (const given of ['../../etc/passwd', '/etc/hosts']) {
      const outside = await runCli(['index', repo, '--paths', given], env);
      expect(outside.code, given).toBe(2);
      expect(outside.stderr).toBe(`monorag: --paths: ${given} is outside the project ${repo}; give a path inside it, relative to the project root or absolute.\n`);
    }
    const hook = await runCli(['index', repo, '--hook', 'post-commit'], env);
    expect(hook.code).toBe(2);
    expect(hook.stderr).toContain('--hook applies only with --from-queue');
  });

  it('says why an index run found nothing to index (an empty repository, or one whose files are all ignored)', async () => {
    const empty = makeFixtureRepo({});
    const run = await runCli(['index', empty], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trimEnd().split('\n').pop()).toBe(
      '  note: no file was indexed: the project holds no files, or all of them are left out by ignore rules (.gitignore, .git/info/exclude, .monoragignore), by the default rules (dependency and build folders such as node_modules/, dist/, target/, coverage/; a `!dist/` line in .monoragignore re-includes one) or by name (lockfiles, bundles, secret-looking files).',
    );
    const full = makeFixtureRepo();
    expect((await runCli(['index', full], env)).stdout).not.toContain('note: no file was indexed');
  });

  it('a full index run finds damage in pages no query reads and says to rebuild, instead of reporting success', async () => {
    const repo = makeFixtureRepo();
    await index(repo);
    const file = path.join(repo, '.monorag', 'index.sqlite');
    const checkpoint = await runCli(['search', 'slugify', '--lexical', '--project', repo], env); // leaves the WAL folded in at close
    expect(checkpoint.code, checkpoint.stderr).toBe(0);
    for (const suffix of ['-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    // Garble every page after the first few (schema and manifest pages stay readable).
    for (let page = 4; page * pageSize < bytes.length; page += 2) bytes.fill(0x41, page * pageSize, page * pageSize + pageSize);
    writeFileSync(file, bytes);
    const run = await runCli(['index', repo, '--json'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The index ${file} is damaged and could not pass its integrity check`);
    expect(run.stderr).toContain('run `monorag index --rebuild`');
    expect((await runCli(['index', repo, '--rebuild', '--json'], env)).code).toBe(0);
    expect((await index(repo)).unchanged).toBe(Object.keys(FIXTURE_FILES).length);
  });

  it('refuses an empty query and a 100 KB query, naming the argument', async () => {
    const repo = makeFixtureRepo();
    await index(repo);
    const empty = await runCli(['search', '', '--lexical', '--project', repo], env);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/"query" is empty/);
    const huge = await runCli(['search', 'y'.repeat(100_000), '--lexical', '--project', repo], env);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/"query" is 100000 characters; at most 2000/);
  });

  it('tells the user to index first when there is no index', async () => {
    const repo = makeFixtureRepo();
    const run = await runCli(['search', 'x', '--project', repo], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No index for .*Run `monorag index/);
  });

  it('rejects a non-numeric --limit naming the flag', async () => {
    const run = await runCli(['search', 'x', '--limit', 'ten'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--limit.*expected a whole number >= 1 in decimal digits, got "ten"/);
  });
});
