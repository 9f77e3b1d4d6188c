import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normaliseRemoteUrl, repositoryIdentity } from './repository-identity.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, env: GIT_ENV, encoding: 'utf8' }).trim();
}

/** A git repository named `name` in a new temp directory, with one commit of `file`. */
function makeRepo(name: string, file = 'a.txt'): string {
  const root = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-identity-'))), name);
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(root, file), `${file}\n`);
  writeFileSync(path.join(root, 'sub', 'b.txt'), 'b\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  return root;
}

describe('normaliseRemoteUrl', () => {
  it('gives the SSH, scp-like and HTTPS URLs of one repository the same host/path', () => {
    for (const url of [
      'git@github.com:pinojs/pino.git',
      'ssh://git@github.com/pinojs/pino.git',
      'https://github.com/pinojs/pino',
      'https://user:token@GitHub.com/pinojs/pino.git/',
      'git://github.com/pinojs/pino.git',
    ]) {
      expect(normaliseRemoteUrl(url), url).toBe('github.com/pinojs/pino');
    }
    expect(normaliseRemoteUrl('/srv/git/pino.git')).toBe('/srv/git/pino');
    expect(normaliseRemoteUrl('file:///srv/git/pino')).toBe('/srv/git/pino');
    expect(normaliseRemoteUrl('ssh://git@example.com:2222/team/app.git')).toBe('example.com:2222/team/app');
  });
});

describe('repositoryIdentity', () => {
  it('tells apart two repositories that share a directory name, and names a repository by its first commit without a remote', async () => {
    const one = makeRepo('repo', 'one.txt');
    const two = makeRepo('repo', 'two.txt');
    const first = await repositoryIdentity(one);
    expect(first).toEqual({ id: `root ${git(one, 'rev-list', '--max-parents=0', 'HEAD')}`, repositoryName: null });
    expect((await repositoryIdentity(two)).id).not.toBe(first.id);
    // Later commits do not change it.
    writeFileSync(path.join(one, 'one.txt'), 'changed\n');
    git(one, 'commit', '-q', '-am', 'second');
    expect(await repositoryIdentity(one)).toEqual(first);
  });

  it('gives every clone of one remote the same identity, whatever its directory is called, and the remote\'s name', async () => {
    const origin = makeRepo('upstream');
    const a = makeRepo('checkout-a');
    const b = path.join(path.dirname(makeRepo('unused')), 'other-name');
    git(path.dirname(b), 'clone', '-q', origin, b);
    git(a, 'remote', 'add', 'origin', 'git@github.com:team/app.git');
    git(b, 'remote', 'set-url', 'origin', 'https://github.com/team/app');
    expect(await repositoryIdentity(a)).toEqual({ id: 'origin github.com/team/app', repositoryName: 'app' });
    expect(await repositoryIdentity(b)).toEqual({ id: 'origin github.com/team/app', repositoryName: 'app' });
    // A directory below the top level is a project of its own within the repository.
    expect(await repositoryIdentity(path.join(a, 'sub'))).toEqual({ id: 'origin github.com/team/app #sub/', repositoryName: null });
  });

  it('falls back to the directory\'s path outside git, before the first commit and in a shallow clone without a remote', async () => {
    const plain = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-identity-plain-')));
    expect(await repositoryIdentity(plain)).toEqual({ id: `path ${plain}`, repositoryName: null });
    const empty = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-identity-empty-')));
    git(empty, 'init', '-q');
    expect(await repositoryIdentity(empty)).toEqual({ id: `path ${empty}`, repositoryName: null });
    const origin = makeRepo('deep');
    writeFileSync(path.join(origin, 'a.txt'), 'two\n');
    git(origin, 'commit', '-q', '-am', 'second');
    const shallow = path.join(path.dirname(origin), 'shallow');
    git(path.dirname(origin), 'clone', '-q', '--depth', '1', `file://${origin}`, shallow);
    git(shallow, 'remote', 'remove', 'origin');
    // Its first commit would be the clone's cut-off, different in every shallow clone.
    expect(await repositoryIdentity(shallow)).toEqual({ id: `path ${shallow}`, repositoryName: null });
  });
});
