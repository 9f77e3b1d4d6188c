import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIgnoreFilter } from './ignore-filter.js';
import { testNotebook } from './test-notebook.js';
import { walkProject } from './walk-project.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

function git(cwd: string, ...args: string[]): void {
  // A submodule from a local path needs file transport allowed (git >= 2.38.1 refuses it by default).
  execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], { cwd, env: GIT_ENV, stdio: 'ignore' });
}

function tree(files: Record<string, string | Buffer>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-walk-')));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return root;
}

describe('walkProject', () => {
  it('honours .gitignore at every level, negation, anchoring and .monoragignore', async () => {
    const root = tree({
      '.gitignore': '*.log\n/build/\nsecret/\n!keep.log\n',
      'src/.gitignore': 'gen/\n*.txt\n!important.txt\n',
      'src/a.ts': 'a',
      'src/gen/x.ts': 'x',
      'src/important.txt': 'i',
      'src/other.txt': 'o',
      'src/build/kept.ts': 'anchored /build/ only matches at the root',
      'build/out.js': 'b',
      'app.log': 'l',
      'keep.log': 'k',
      'secret/key.ts': 's',
      '.monoragignore': 'docs/draft.md\n',
      'docs/draft.md': 'd',
      'docs/final.md': 'f',
      'node_modules/pkg/index.js': 'n',
      'package-lock.json': '{}',
    });
    const { files } = await walkProject({ root, maxFileBytes: 1000 });
    expect(files.map((f) => f.path)).toEqual([
      '.gitignore',
      '.monoragignore',
      'docs/final.md',
      'keep.log',
      'src/.gitignore',
      'src/a.ts',
      'src/build/kept.ts',
      'src/important.txt',
    ]);
  });

  it('skips large and binary files and links that leave the root, with reasons', async () => {
    const root = tree({ 'big.txt': 'x'.repeat(2000), 'img.png': 'png', 'ok.txt': 'ok' });
    const outside = tree({ 'target.txt': 'outside' });
    symlinkSync(path.join(outside, 'target.txt'), path.join(root, 'escape.txt'));
    symlinkSync(path.join(root, 'ok.txt'), path.join(root, 'alias.txt'));
    symlinkSync(path.join(root, 'gone.txt'), path.join(root, 'dangling.txt'));
    const { files, skipped } = await walkProject({ root, maxFileBytes: 1000 });
    expect(files.map((f) => f.path)).toEqual(['ok.txt']);
    expect(skipped.map((s) => [s.path, s.reason]).sort()).toEqual([
      ['alias.txt', 'symlink-inside'],
      ['big.txt', 'too-large'],
      ['dangling.txt', 'symlink-broken'],
      ['escape.txt', 'symlink-outside'],
      ['img.png', 'binary'],
    ]);
    expect(skipped.find((s) => s.path === 'dangling.txt')?.detail).toBe(`links to ${path.join(root, 'gone.txt')}, which does not exist`);
  });

  it('keeps a notebook over the limit whose cell sources fit, and says which size it compared for those it skips', async () => {
    const code = 'def trend(xs):\n    # least squares\n    return fit(xs)\n';
    const plots = testNotebook({ code, imageChars: 5000 });
    const long = testNotebook({ code: 'x = 1  # a counter\n'.repeat(60), imageChars: 100 });
    const huge = testNotebook({ code, imageChars: 17_000 });
    const root = tree({ 'nb/plots.ipynb': plots, 'nb/long.ipynb': long, 'nb/huge.ipynb': huge, 'nb/broken.ipynb': `{${'x'.repeat(2000)}`, 'nb/plots.json': plots });
    const { files, skipped } = await walkProject({ root, maxFileBytes: 1000 });
    // The file's size on disk is what the walk reports, whatever was compared.
    expect(files.map((f) => [f.path, f.size])).toEqual([['nb/plots.ipynb', Buffer.byteLength(plots)]]);
    expect(skipped.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'nb/broken.ipynb', reason: 'too-large', detail: '2001 bytes > 1000 (invalid-notebook: the file size counts)' },
      { path: 'nb/huge.ipynb', reason: 'too-large', detail: `notebook file ${Buffer.byteLength(huge)} bytes > 16000, 16 x maxFileBytes: the most read to measure its cell sources` },
      { path: 'nb/long.ipynb', reason: 'too-large', detail: `cell sources ${10 + 60 * 19 - 1} bytes > 1000 (notebook file ${Buffer.byteLength(long)} bytes)` },
      { path: 'nb/plots.json', reason: 'too-large', detail: `${Buffer.byteLength(plots)} bytes > 1000` },
    ]);
  });

  it('indexes a file once, under its real path: links to files and directories inside the project are skipped and name their target', async () => {
    const root = tree({ 'src/retry.ts': 'export const retry = 1;\n', 'src/util/headers.ts': 'h', 'docs/a.md': 'a' });
    symlinkSync('retry.ts', path.join(root, 'src/retry-link.ts'));
    symlinkSync('src/util', path.join(root, 'util-link'));
    symlinkSync('.', path.join(root, 'docs/self'));
    symlinkSync('..', path.join(root, 'docs/up'));
    const { files, skipped } = await walkProject({ root, maxFileBytes: 1000 });
    expect(files.map((f) => f.path)).toEqual(['docs/a.md', 'src/retry.ts', 'src/util/headers.ts']);
    expect(skipped.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'docs/self', reason: 'symlink-inside', detail: 'links to docs/' },
      { path: 'docs/up', reason: 'symlink-inside', detail: 'links to the project root' },
      { path: 'src/retry-link.ts', reason: 'symlink-inside', detail: 'links to src/retry.ts' },
      { path: 'util-link', reason: 'symlink-inside', detail: 'links to src/util/' },
    ]);
    // A scoped walk (index --paths, a watcher event) judges the link the same way.
    expect(await walkProject({ root, maxFileBytes: 1000, scope: ['src/retry-link.ts'] })).toEqual({
      files: [],
      skipped: [{ path: 'src/retry-link.ts', reason: 'symlink-inside', detail: 'links to src/retry.ts' }],
      unreadableDirs: [],
    });
  });

  it('skips a loop of links as a loop, naming each link\'s target, and does not list links the ignore rules leave out', async () => {
    const root = tree({ 'src/a.ts': 'a', '.gitignore': 'vendor-link\n' });
    symlinkSync('loop-b', path.join(root, 'src/loop-a'));
    symlinkSync('loop-a', path.join(root, 'src/loop-b'));
    symlinkSync('src', path.join(root, 'vendor-link'));
    symlinkSync('a.ts', path.join(root, 'src/a.ts~'));
    const { files, skipped } = await walkProject({ root, maxFileBytes: 1000 });
    expect(files.map((f) => f.path)).toEqual(['.gitignore', 'src/a.ts']);
    expect([...skipped].sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'src/loop-a', reason: 'symlink-loop', detail: 'links to loop-b, a chain of links that leads back to itself' },
      { path: 'src/loop-b', reason: 'symlink-loop', detail: 'links to loop-a, a chain of links that leads back to itself' },
    ]);
  });

  it("leaves out a submodule's .git file (gitdir: ...) like the .git directory, whatever .monoragignore says", async () => {
    const lib = tree({ 'index.js': 'module.exports = 1;\n' });
    git(lib, 'init', '-q', '-b', 'main');
    git(lib, 'add', '.');
    git(lib, 'commit', '-q', '-m', 'lib');
    const root = tree({ 'src/a.ts': 'a', '.monoragignore': '!.git\n' });
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'submodule', 'add', '-q', lib, 'third_party/ms');
    const { files, skipped } = await walkProject({ root, maxFileBytes: 10_000 });
    expect(files.map((f) => f.path)).toEqual(['.gitmodules', '.monoragignore', 'src/a.ts', 'third_party/ms/index.js']);
    expect(skipped).toEqual([]);
    // The same filter decides for the watcher and for get_file_context, which reach a path without a walk.
    const filter = createIgnoreFilter({ root });
    expect(['third_party/ms/.git', '.git', '.git/config', 'a/.git/HEAD'].map((p) => filter.isPathIgnored(p, false))).toEqual([true, true, true, true]);
    expect(filter.isPathIgnored('third_party/ms/.github', false)).toBe(false);
  });

  it('reads a .gitignore that is a loop of links as no rules, instead of failing the walk', async () => {
    const root = tree({ 'src/a.ts': 'a' });
    symlinkSync('.gitignore', path.join(root, 'src/.gitignore'));
    const { files, skipped } = await walkProject({ root, maxFileBytes: 1000 });
    expect(files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(skipped).toEqual([{ path: 'src/.gitignore', reason: 'symlink-loop', detail: 'links to .gitignore, a chain of links that leads back to itself' }]);
  });

  it('leaves out editor backups, swap and lock files and merge leftovers, unless .monoragignore re-includes them', async () => {
    const root = tree({
      'src/retry.ts': 'r',
      'src/retry.ts~': 'backup',
      'py/#pricing.py#': 'emacs autosave',
      'py/.#pricing.py': 'emacs lock',
      'src/.retry.ts.swp': 'vim swap',
      'src/.retry.ts.swo': 'vim swap',
      'src/util/headers.ts.orig': 'merge',
      'src/util/headers.ts.rej': 'patch',
      'src/util/headers.ts': 'h',
      'notes/#1 plan.md': 'a # in the name but not an autosave',
    });
    expect((await walkProject({ root, maxFileBytes: 1000 })).files.map((f) => f.path)).toEqual([
      'notes/#1 plan.md', 'src/retry.ts', 'src/util/headers.ts',
    ]);
    writeFileSync(path.join(root, '.monoragignore'), '!*.orig\n!\\#*#\n');
    expect((await walkProject({ root, maxFileBytes: 1000 })).files.map((f) => f.path)).toEqual([
      '.monoragignore', 'notes/#1 plan.md', 'py/#pricing.py#', 'src/retry.ts', 'src/util/headers.ts', 'src/util/headers.ts.orig',
    ]);
  });

  it('leaves out build output in dist/ at any depth (a bundle repeats its source), unless .monoragignore re-includes it', async () => {
    const root = tree({ 'lib/a.js': 'a', 'dist/node/a.cjs': 'bundle', 'packages/x/dist/index.js': 'built', 'src/distance.ts': 'd' });
    expect((await walkProject({ root, maxFileBytes: 1000 })).files.map((f) => f.path)).toEqual(['lib/a.js', 'src/distance.ts']);
    writeFileSync(path.join(root, '.monoragignore'), '!dist/\n');
    expect((await walkProject({ root, maxFileBytes: 1000 })).files.map((f) => f.path)).toEqual([
      '.monoragignore', 'dist/node/a.cjs', 'lib/a.js', 'packages/x/dist/index.js', 'src/distance.ts',
    ]);
  });

  it('says a file name that is not valid UTF-8 is why a file is skipped', async () => {
    const root = tree({ 'ok.py': 'x = 1\n' });
    writeFileSync(Buffer.concat([Buffer.from(`${root}/bad`), Buffer.from([0xff, 0xfe]), Buffer.from('name.py')]), 'y = 2\n');
    const { files, skipped } = await walkProject({ root, maxFileBytes: 1000 });
    expect(files.map((f) => f.path)).toEqual(['ok.py']);
    expect(skipped).toEqual([{ path: 'bad\uFFFD\uFFFDname.py', reason: 'unreadable', detail: 'the file name is not valid UTF-8; rename the file to index it' }]);
  });

  it('applies extra rules such as the data directory', async () => {
    const root = tree({ 'a.ts': 'a', 'data/index.sqlite-wal': 'w', 'data/x.json': '{}' });
    const { files } = await walkProject({ root, maxFileBytes: 1000, extraIgnores: ['/data/'] });
    expect(files.map((f) => f.path)).toEqual(['a.ts']);
  });
});
