import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIgnoreFilter } from './ignore-filter.js';
import { countWorkTreeChanges } from './work-tree-changes.js';

function git(root: string, ...args: string[]): void {
  execFileSync('git', args, { cwd: root });
}

/** Writes a file and sets its modification time to `mtimeMs`. */
function write(root: string, rel: string, mtimeMs: number, content = rel): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
  utimesSync(path.join(root, rel), mtimeMs / 1000, mtimeMs / 1000);
}

/** A new, empty git repository in a temp directory (its real path), with a committer set. */
function gitRepo(prefix: string): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 't@example.com');
  git(root, 'config', 'user.name', 't');
  return root;
}

describe('countWorkTreeChanges', () => {
  it('counts untracked files and uncommitted edits the index admits that changed after the last run', async () => {
    const root = gitRepo('monorag-untracked-');
    const indexedAt = Date.now() + 600_000; // in the future, so each file's changed time is the mtime set below, not its ctime (now)
    const before = indexedAt - 60_000;
    const after = indexedAt + 30_000;
    writeFileSync(path.join(root, '.gitignore'), 'build/\n');
    writeFileSync(path.join(root, '.monoragignore'), 'fixtures/\n');
    write(root, 'tracked.ts', after);
    write(root, 'kept.ts', before - 1000);
    write(root, 'gone.ts', before);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'one');
    write(root, 'tracked.ts', after + 1000, 'edited'); // an uncommitted edit of a tracked file counts
    write(root, 'kept.ts', before, 'edited before the run');
    execFileSync('rm', [path.join(root, 'gone.ts')]); // a deleted tracked file: counted only while the index holds it
    write(root, 'src/new.ts', after); // counts
    write(root, 'src/new-too.py', after); // counts
    write(root, 'src/old.ts', before); // untracked but indexed by the last run
    write(root, 'build/out.js', after); // ignored by .gitignore
    write(root, 'fixtures/big.json', after); // ignored by .monoragignore
    write(root, '.monorag/index.sqlite', after); // the data directory
    write(root, '.env', after); // monorag's default ignores (secrets)
    const filter = createIgnoreFilter({ root, extraIgnores: ['/.monorag/'] });

    // tracked.ts (edited, not committed), src/new.ts, src/new-too.py; kept.ts was edited before the run.
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter })).toBe(3);
    expect(await countWorkTreeChanges({ root, sinceMs: after + 1001, filter })).toBe(0);
    // Never indexed: every changed or untracked file the index admits (tracked.ts, kept.ts, src/old.ts and the two new ones).
    expect(await countWorkTreeChanges({ root, sinceMs: null, filter })).toBe(5);
    // The deleted gone.ts is pending while the index still holds it (its deletion has no time).
    const holds = (paths: string[]) => async (rel: string) => paths.includes(rel);
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter, isIndexed: holds(['gone.ts', 'kept.ts']) })).toBe(4);
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter, isIndexed: holds(['kept.ts']) })).toBe(3);
    // A run still going (or interrupted) wrote tracked.ts and src/new.ts after their last edits, though the
    // index's own indexedAt is older: they are not pending; src/new-too.py, written before its edit, is.
    const writtenAt = new Map([['tracked.ts', after + 2000], ['src/new.ts', after + 1], ['src/new-too.py', after - 1]]);
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter, indexedAtOf: async (rel) => writtenAt.get(rel) })).toBe(1);
  });

  it('counts an untracked file the index holds once it is deleted (git lists no deleted untracked file)', async () => {
    const root = gitRepo('monorag-untracked-deleted-');
    const indexedAt = Date.now() + 600_000; // in the future, so each file's changed time is the mtime set below, not its ctime (now)
    write(root, 'tracked.ts', indexedAt - 1000);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'one');
    write(root, 'src/scratch.ts', indexedAt - 1000); // untracked, indexed, then deleted
    write(root, 'src/notes.ts', indexedAt - 1000); // untracked, indexed, still there
    write(root, 'src/queued.ts', indexedAt - 1000); // untracked, indexed, deleted, its job already queued
    const filter = createIgnoreFilter({ root });
    const indexed = ['src/notes.ts', 'src/queued.ts', 'src/scratch.ts', 'tracked.ts'];
    const isIndexed = async (rel: string) => indexed.includes(rel);
    const indexedPaths = async () => indexed;
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter, isIndexed, indexedPaths })).toBe(0);
    execFileSync('rm', [path.join(root, 'src/scratch.ts'), path.join(root, 'src/queued.ts')]);
    // Without the index's paths nothing says the files were there.
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter, isIndexed })).toBe(0);
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter, isIndexed, indexedPaths, exclude: new Set(['src/queued.ts']) })).toBe(1);
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter, isIndexed, indexedPaths })).toBe(2);
  });

  it('counts a file put back to HEAD\'s version after the index read its edit, while HEAD is the commit the index reflects', async () => {
    const root = gitRepo('monorag-untracked-reverted-');
    const indexedAt = Date.now() + 600_000; // in the future, so each file's changed time is the mtime set below, not its ctime (now)
    write(root, 'a.js', indexedAt - 5000, 'export const a = 1;\n');
    write(root, 'b.js', indexedAt - 5000, 'export const b = 1;\n');
    write(root, 'c.js', indexedAt - 5000, 'export const c = 1;\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'one');
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    // Indexed with a.js edited, b.js deleted and c.js's edit staged: the record lists the three.
    write(root, 'a.js', indexedAt - 1000, 'export const a = "edited";\n');
    execFileSync('rm', [path.join(root, 'b.js')]);
    write(root, 'c.js', indexedAt - 1000, 'export const c = "staged";\n');
    git(root, 'add', 'c.js');
    const record = { commit: head, paths: ['a.js', 'b.js', 'c.js'] };
    const filter = createIgnoreFilter({ root });
    const indexed = ['a.js', 'c.js'];
    const options = { root, sinceMs: indexedAt, filter, isIndexed: async (rel: string) => indexed.includes(rel), headDifferences: { indexedCommit: head, headCommit: head, record: async () => record } };
    expect(await countWorkTreeChanges(options)).toBe(0);
    // `git checkout HEAD -- .` puts all three back (as `git stash` or `git reset --hard` would): git lists none of them.
    git(root, 'checkout', 'HEAD', '--', '.');
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter })).toBe(0);
    expect(await countWorkTreeChanges(options)).toBe(3);
    expect(await countWorkTreeChanges({ ...options, exclude: new Set(['a.js']) })).toBe(2);
    // Another commit than the index's, or than the record's: HEAD's versions are no guide.
    expect(await countWorkTreeChanges({ ...options, headDifferences: { indexedCommit: 'f'.repeat(40), headCommit: head, record: async () => record } })).toBe(0);
    write(root, 'd.js', indexedAt - 5000, 'export const d = 1;\n');
    git(root, 'add', 'd.js');
    git(root, 'commit', '-q', '-m', 'two');
    const moved = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    expect(moved).not.toBe(head);
    expect(await countWorkTreeChanges({ ...options, headDifferences: { ...options.headDifferences, headCommit: moved } })).toBe(0);
  });

  it('judges links as the walk does: never followed (a loop fails nothing), pending only while the index holds one', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-untracked-links-')));
    git(root, 'init', '-q', '-b', 'main');
    const indexedAt = Date.now() + 600_000; // in the future, so each file's changed time is the mtime set below, not its ctime (now)
    write(root, 'src/retry.ts', indexedAt - 1000);
    symlinkSync('loop-b', path.join(root, 'src/loop-a'));
    symlinkSync('loop-a', path.join(root, 'src/loop-b'));
    symlinkSync('retry.ts', path.join(root, 'src/retry-link.ts')); // its target is indexed under its own path
    symlinkSync('gone.ts', path.join(root, 'src/dangling.ts'));
    symlinkSync('../src', path.join(root, 'src/dir-link'));
    const filter = createIgnoreFilter({ root });
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter })).toBe(0);
    expect(await countWorkTreeChanges({ root, sinceMs: null, filter })).toBe(1); // src/retry.ts, never indexed
    // An index written before links were skipped holds the link: the next run removes it, so it is pending.
    const holds = (paths: string[]) => async (rel: string) => paths.includes(rel);
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter, isIndexed: holds(['src/retry.ts', 'src/retry-link.ts']) })).toBe(1);
    // A .gitignore that is a loop of links is no rules, as for the walk.
    symlinkSync('.gitignore', path.join(root, 'src/.gitignore'));
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter: createIgnoreFilter({ root }) })).toBe(0);
  });

  it('counts a file written after the run with an older modification time (cp -p, tar x, rsync -a), by its status-change time (trial)', async () => {
    const repo = gitRepo('monorag-ctime-');
    const plain = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-ctime-plain-')));
    for (const root of [repo, plain]) writeFileSync(path.join(root, 'parse.py'), 'def parse(): pass\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'one');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const indexedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const old = Date.parse('2020-01-01T00:00:00Z');
    for (const root of [repo, plain]) write(root, 'parse.py', old, 'def parse(): return "walrus ledger"\n');
    const options = (root: string) => ({
      root, sinceMs: indexedAt, maxFileBytes: 1 << 20, filter: createIgnoreFilter({ root }),
      indexedAtOf: async (rel: string) => (rel === 'parse.py' ? indexedAt : undefined), indexedPaths: async () => ['parse.py'],
    });
    expect(await countWorkTreeChanges(options(repo))).toBe(1);
    expect(await countWorkTreeChanges(options(plain))).toBe(1);
  });

  it('counts the files of a directory moved into the project or renamed in it, whose own times are old (trial)', async () => {
    const repo = gitRepo('monorag-moved-dir-');
    const plain = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-moved-dir-plain-')));
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-moved-dir-src-')));
    const old = Date.parse('2020-01-01T00:00:00Z');
    for (const root of [repo, plain]) {
      write(root, 'lib/a.py', old, 'a = 1\n');
      write(root, 'lib/b.py', old, 'b = 1\n');
      write(outside, `${path.basename(root)}/m.py`, old, 'def moved_in(): pass\n');
    }
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'one');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const indexedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const options = (root: string) => ({
      root, sinceMs: indexedAt, maxFileBytes: 1 << 20, filter: createIgnoreFilter({ root }),
      indexedAtOf: async (rel: string) => (['lib/a.py', 'lib/b.py'].includes(rel) ? indexedAt : undefined),
      isIndexed: async (rel: string) => ['lib/a.py', 'lib/b.py'].includes(rel),
      indexedPaths: async () => ['lib/a.py', 'lib/b.py'],
    });
    for (const root of [repo, plain]) {
      expect(await countWorkTreeChanges(options(root))).toBe(0);
      renameSync(path.join(outside, path.basename(root)), path.join(root, 'newpkg'));
      expect(await countWorkTreeChanges(options(root))).toBe(1); // newpkg/m.py
    }
    // lib/ renamed: its two files are gone from where the index holds them, and new at lib2/.
    renameSync(path.join(plain, 'lib'), path.join(plain, 'lib2'));
    expect(await countWorkTreeChanges(options(plain))).toBe(5);
  });

  it('counts an edit of .git/info/exclude since the run: its rules decide which files the index holds (trial)', async () => {
    const root = gitRepo('monorag-info-exclude-');
    write(root, 'src/a.ts', Date.parse('2020-01-01T00:00:00Z'), 'export const a = 1;\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const indexedAt = Date.now();
    const filter = createIgnoreFilter({ root });
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter })).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(path.join(root, '.git', 'info', 'exclude'), 'src/a.ts\n');
    expect(await countWorkTreeChanges({ root, sinceMs: indexedAt, filter: createIgnoreFilter({ root }) })).toBe(1);
  });

  it('in git as outside it, leaves out new files no run would read (binary by extension, over the size limit) unless the index holds them (trial: counted in git only)', async () => {
    const root = gitRepo('monorag-untracked-unread-');
    const indexedAt = Date.now() + 600_000; // in the future, so each file's changed time is the mtime set below, not its ctime (now)
    write(root, 'logo.png', indexedAt + 1000);
    write(root, 'big.ts', indexedAt + 1000, 'x'.repeat(200));
    write(root, 'grown.ts', indexedAt + 1000, 'y'.repeat(200)); // the index holds it: the next run removes it
    write(root, 'small.ts', indexedAt + 1000);
    const options = { root, maxFileBytes: 100, sinceMs: indexedAt, filter: createIgnoreFilter({ root }), isIndexed: async (rel: string) => rel === 'grown.ts' };
    // grown.ts and small.ts
    expect(await countWorkTreeChanges(options)).toBe(2);
    // Without the size limit only the binary is known to be left out.
    expect(await countWorkTreeChanges({ ...options, maxFileBytes: undefined })).toBe(3);
  });

  it('counts nothing outside a git work tree without the size limit to walk it by', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-untracked-nogit-')));
    writeFileSync(path.join(root, 'a.ts'), 'a');
    expect(await countWorkTreeChanges({ root, sinceMs: null, filter: createIgnoreFilter({ root }) })).toBe(0);
  });

  it('outside git, walks the tree: new and edited files since the index read them, deleted and newly ignored ones it holds (a trial: never stale)', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-walked-changes-')));
    const indexedAt = Date.now() + 600_000; // in the future, so each file's changed time is the mtime set below, not its ctime (now)
    write(root, 'src/kept.ts', indexedAt - 5000);
    write(root, 'src/edited.ts', indexedAt + 1000);
    write(root, 'src/new.ts', indexedAt + 1000);
    write(root, 'src/old-new.ts', indexedAt - 1000); // not indexed, but older than the run: a run left it out
    write(root, 'notes/draft.md', indexedAt + 1000);
    write(root, 'big.ts', indexedAt + 1000, 'x'.repeat(200)); // over the size limit: no run indexes it
    write(root, 'logo.png', indexedAt + 1000); // binary by extension
    write(root, '.monorag/index.sqlite', indexedAt + 1000);
    const indexed = new Map([
      ['src/kept.ts', indexedAt],
      ['src/edited.ts', indexedAt],
      ['src/deleted.ts', indexedAt],
      ['notes/draft.md', indexedAt + 2000], // read after its last save: not pending
    ]);
    const options = {
      root,
      maxFileBytes: 100,
      sinceMs: indexedAt,
      filter: createIgnoreFilter({ root, extraIgnores: ['/.monorag/'] }),
      indexedAtOf: async (rel: string) => indexed.get(rel),
      indexedPaths: async () => [...indexed.keys()],
    };
    // src/edited.ts, src/new.ts, src/deleted.ts
    expect(await countWorkTreeChanges(options)).toBe(3);
    expect(await countWorkTreeChanges({ ...options, exclude: new Set(['src/new.ts', 'src/deleted.ts']) })).toBe(1);
    // No completed run: every selected file counts (kept, edited, new, old-new, draft), and the deleted one the index holds.
    expect(await countWorkTreeChanges({ ...options, sinceMs: null, indexedAtOf: undefined })).toBe(6);
    // A rule that now leaves out a file the index holds: the next run removes it.
    write(root, '.monoragignore', indexedAt - 1000, 'notes/\n');
    expect(await countWorkTreeChanges({ ...options, filter: createIgnoreFilter({ root, extraIgnores: ['/.monorag/'] }) })).toBe(4);
  });
});
