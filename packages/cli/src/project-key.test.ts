import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveProjectKey } from './project-key.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (root: string, ...args: string[]): string => execFileSync('git', args, { cwd: root, env: GIT_ENV, encoding: 'utf8' }).trim();
const sha8 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** A git repository called `name` (one commit of `file`) in a new temp directory. */
function makeRepo(name: string, file: string): string {
  const root = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-key-'))), name);
  mkdirSync(root);
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(root, file), `${file}\n`);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  return root;
}

describe('deriveProjectKey', () => {
  it('gives two projects that share a directory name two keys (they shared one queue and one Qdrant collection)', async () => {
    const one = makeRepo('repo', 'one.txt');
    const two = makeRepo('repo', 'two.txt');
    expect(await deriveProjectKey(one, undefined)).toBe(`repo-${sha8(`root ${git(one, 'rev-list', '--max-parents=0', 'HEAD')}`)}`);
    expect(await deriveProjectKey(two, undefined)).toBe(`repo-${sha8(`root ${git(two, 'rev-list', '--max-parents=0', 'HEAD')}`)}`);
    expect(await deriveProjectKey(one, undefined)).not.toBe(await deriveProjectKey(two, undefined));
  });

  it('gives every checkout of one remote the remote\'s name and one key, and takes store.qdrant.project as it is', async () => {
    const a = makeRepo('app', 'a.txt');
    const b = makeRepo('app-copy', 'b.txt');
    git(a, 'remote', 'add', 'origin', 'git@github.com:team/app.git');
    git(b, 'remote', 'add', 'origin', 'https://github.com/team/app.git');
    const key = `app-${sha8('origin github.com/team/app')}`;
    expect(await deriveProjectKey(a, undefined)).toBe(key);
    expect(await deriveProjectKey(b, undefined)).toBe(key);
    expect(await deriveProjectKey(a, 'team-app')).toBe('team-app');
  });

  it('keeps the readable part to 32 characters so the hash survives the store\'s 48-character slug', async () => {
    const plain = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-key-'))), 'a'.repeat(60));
    mkdirSync(plain);
    expect(await deriveProjectKey(plain, undefined)).toBe(`${'a'.repeat(32)}-${sha8(`path ${plain}`)}`);
  });

  it('gives two checkouts of one remote two keys when each has its own SQLite index (one queue let one checkout\'s workers eat the other\'s jobs)', async () => {
    const a = makeRepo('app', 'a.txt');
    const b = makeRepo('app', 'b.txt');
    git(a, 'remote', 'add', 'origin', 'https://github.com/team/app.git');
    git(b, 'remote', 'add', 'origin', 'https://github.com/team/app.git');
    const shared = await deriveProjectKey(a, undefined);
    const aKey = await deriveProjectKey(a, undefined, path.join(a, '.monorag'));
    expect(aKey).toBe(`app-${sha8(`origin github.com/team/app\0${path.join(a, '.monorag')}`)}`);
    expect(await deriveProjectKey(b, undefined, path.join(b, '.monorag'))).not.toBe(aKey);
    expect(aKey).not.toBe(shared);
    // A key set by hand too: with SQLite each checkout keeps its own queue.
    expect(await deriveProjectKey(a, 'team-app', path.join(a, '.monorag'))).toBe(`team-app-${sha8(path.join(a, '.monorag'))}`);
    expect(await deriveProjectKey(b, 'team-app', path.join(b, '.monorag'))).toBe(`team-app-${sha8(path.join(b, '.monorag'))}`);
  });
});
