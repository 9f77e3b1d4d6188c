import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHeadMoveCheck, headMoveIndexed } from './head-move-indexed.js';
import { createIgnoreFilter } from './ignore-filter.js';
import { readProjectFile } from './read-project-file.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, env: GIT_ENV, encoding: 'utf8' }).trim();
}

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

describe('headMoveIndexed', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A repository with two committed files, and an "index" of them: their content hashes as a run records them. */
  async function indexedRepo() {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-head-move-')));
    dirs.push(root);
    git(root, 'init', '-q', '-b', 'main');
    write(root, 'src/a.ts', 'export const a = 1;\n');
    write(root, 'src/b.ts', 'export const b = 1;\n');
    write(root, '.gitignore', 'build/\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'first');
    const held = new Map<string, string>();
    const hold = async (rel: string) => {
      const read = await readProjectFile(path.join(root, rel));
      if (read.kind !== 'text') throw new Error(`${rel} is not text`);
      held.set(rel, read.contentHash);
    };
    for (const rel of ['src/a.ts', 'src/b.ts', '.gitignore']) await hold(rel);
    const indexedCommit = git(root, 'rev-parse', 'HEAD');
    const options = (headCommit: string) => ({
      root, indexedCommit, headCommit, filter: createIgnoreFilter({ root }), maxFileBytes: 1 << 20, contentHashOf: async (rel: string) => held.get(rel),
    });
    return { root, held, hold, options };
  }

  it('a commit amended with a new message only, and a commit of edits the index already holds, moved to indexed content', async () => {
    const { root, hold, options } = await indexedRepo();
    git(root, 'commit', '-q', '--amend', '-m', 'first, reworded');
    expect(await headMoveIndexed(options(git(root, 'rev-parse', 'HEAD')))).toBe(true);
    // An edit a run indexed before it was committed.
    write(root, 'src/a.ts', 'export const a = 2;\n');
    await hold('src/a.ts');
    git(root, 'commit', '-q', '-am', 'edit a');
    expect(await headMoveIndexed(options(git(root, 'rev-parse', 'HEAD')))).toBe(true);
  });

  it('a commit that brings content the index does not hold, or deletes a file it holds, is not indexed', async () => {
    const { root, held, options } = await indexedRepo();
    write(root, 'src/b.ts', 'export const b = 2;\n');
    git(root, 'commit', '-q', '-am', 'edit b');
    expect(await headMoveIndexed(options(git(root, 'rev-parse', 'HEAD')))).toBe(false);
    git(root, 'reset', '-q', '--hard', 'HEAD~1');
    git(root, 'rm', '-q', 'src/b.ts');
    git(root, 'commit', '-q', '-m', 'drop b');
    const dropped = git(root, 'rev-parse', 'HEAD');
    expect(await headMoveIndexed(options(dropped))).toBe(false);
    held.delete('src/b.ts'); // a run removed it
    expect(await headMoveIndexed(options(dropped))).toBe(true);
  });

  it('ignores paths the rules leave out, and says false for a commit git does not know', async () => {
    const { root, options } = await indexedRepo();
    write(root, 'build/out.js', 'bundle\n');
    git(root, 'add', '-f', 'build/out.js');
    git(root, 'commit', '-q', '-m', 'a build output, forced in');
    expect(await headMoveIndexed(options(git(root, 'rev-parse', 'HEAD')))).toBe(true);
    expect(await headMoveIndexed(options('0123456789abcdef0123456789abcdef01234567'))).toBe(false);
  });

  it('a remembering check keeps the commits\' difference between reads, and reads a file again once it changes', async () => {
    const { root, hold, options } = await indexedRepo();
    write(root, 'src/a.ts', 'export const a = 2;\n');
    await hold('src/a.ts');
    git(root, 'commit', '-q', '-am', 'edit a');
    const head = git(root, 'rev-parse', 'HEAD');
    const check = createHeadMoveCheck({ settledMs: 0 });
    expect(await check(options(head))).toBe(true);
    // Without git the difference cannot be listed again: only the remembered one still answers.
    renameSync(path.join(root, '.git'), path.join(root, '.git-away'));
    try {
      expect(await headMoveIndexed(options(head))).toBe(false);
      expect(await check(options(head))).toBe(true);
      // An edit of the same size after the remembered read: the file's times differ, so it is read again.
      await new Promise((resolve) => setTimeout(resolve, 20));
      write(root, 'src/a.ts', 'export const a = 3;\n');
      expect(await check(options(head))).toBe(false);
      write(root, 'src/a.ts', 'export const a = 2;\n');
      expect(await check(options(head))).toBe(true);
    } finally {
      renameSync(path.join(root, '.git-away'), path.join(root, '.git'));
    }
  });
});
