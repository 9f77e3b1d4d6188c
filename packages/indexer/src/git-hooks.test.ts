import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAINED_SUFFIX, HOOK_MARKER, installGitHooks, uninstallGitHooks } from './git-hooks.js';
import { readPathQueue } from './path-queue.js';

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
}

function repo(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-hooks-')));
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 't@example.com');
  git(root, 'config', 'user.name', 't');
  writeFileSync(path.join(root, 'a.ts'), 'a');
  writeFileSync(path.join(root, 'b.ts'), 'b');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'one');
  return root;
}

// `true` stands in for monorag: the hooks' background start must not matter to what they queue.
const command = ['true'];

describe('git hooks', () => {
  it('queue the paths of a commit, a checkout and a rename (both sides), honouring core.hooksPath and chaining', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    const hooksDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-hooks-dir-')));
    git(root, 'config', 'core.hooksPath', hooksDir);
    const log = path.join(hooksDir, 'chained.log');
    writeFileSync(path.join(hooksDir, 'post-commit'), `#!/bin/sh\necho ran "$@" >> "${log}"\n`);
    chmodSync(path.join(hooksDir, 'post-commit'), 0o755);

    const first = await installGitHooks({ root, dataDir, command });
    expect(first.hooksDir).toBe(hooksDir);
    expect(first.hooks).toEqual({ 'post-commit': 'chained', 'post-merge': 'installed', 'post-checkout': 'installed', 'post-rewrite': 'installed' });
    const again = await installGitHooks({ root, dataDir, command });
    expect(Object.values(again.hooks)).toEqual(['updated', 'updated', 'updated', 'updated']);

    git(root, 'mv', 'a.ts', 'renamed.ts');
    writeFileSync(path.join(root, 'c.ts'), 'c');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'two');
    expect(readFileSync(log, 'utf8')).toBe('ran\n');
    const afterCommit = readPathQueue(dataDir);
    expect(afterCommit.paths.sort()).toEqual(['a.ts', 'c.ts', 'renamed.ts']);
    expect(afterCommit.full).toBe(false);
    afterCommit.remove();

    git(root, 'checkout', '-q', 'HEAD~1');
    const afterCheckout = readPathQueue(dataDir);
    expect(afterCheckout.paths.sort()).toEqual(['a.ts', 'c.ts', 'renamed.ts']);
    afterCheckout.remove();

    const removed = await uninstallGitHooks({ root });
    expect(removed.hooks).toEqual({ 'post-commit': 'restored', 'post-merge': 'removed', 'post-checkout': 'removed', 'post-rewrite': 'removed' });
    expect(readFileSync(path.join(hooksDir, 'post-commit'), 'utf8')).not.toContain(HOOK_MARKER);
    expect(readdirSync(hooksDir).sort()).toEqual(['chained.log', 'post-commit']);
    expect(existsSync(path.join(hooksDir, `post-commit${CHAINED_SUFFIX}`))).toBe(false);
  });

  it('run the monorag on PATH when there is one (preferPathBin), else the recorded command', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    const tools = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-hooks-bin-')));
    /** A stand-in executable that records its arguments in `<tools>/<name>.args`. */
    const fake = (dir: string, name: string): string => {
      const file = path.join(dir, name);
      writeFileSync(file, `#!/bin/sh\necho "$@" > '${path.join(tools, `${name}.args`)}'\n`);
      chmodSync(file, 0o755);
      return file;
    };
    const recorded = fake(tools, 'recorded-monorag');
    const binDir = path.join(tools, 'bin');
    mkdirSync(binDir);
    fake(binDir, 'monorag');
    await installGitHooks({ root, dataDir, command: [recorded], preferPathBin: true });
    // A PATH without any monorag, so that an installed one on this machine cannot interfere.
    const basePath = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '' && !existsSync(path.join(dir, 'monorag')));
    const commitWith = (pathDirs: string[], file: string): void => {
      writeFileSync(path.join(root, file), file);
      execFileSync('git', ['add', '-A'], { cwd: root });
      execFileSync('git', ['commit', '-q', '-m', file], { cwd: root, env: { ...process.env, PATH: pathDirs.join(path.delimiter) } });
    };
    const argsOf = async (name: string): Promise<string> => {
      const file = path.join(tools, `${name}.args`);
      for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(50);
      return readFileSync(file, 'utf8');
    };

    commitWith([binDir, ...basePath], 'c.ts');
    // The hook names its own queue file, which holds the path it queued.
    const first = await argsOf('monorag');
    expect(first).toMatch(new RegExp(`^index ${root} --from-queue --quiet --hook post-commit --queued 1 --queue-file ${dataDir}/queue/\\d+-\\d+-post-commit\\.paths\n$`));
    expect(readFileSync(first.trim().split(' --queue-file ')[1]!, 'utf8')).toBe('c.ts\n');
    expect(existsSync(path.join(tools, 'recorded-monorag.args'))).toBe(false);

    commitWith(basePath, 'd.ts');
    // `git add -A` also committed the first hook's queue file here (no exclude in this repo), so the count varies.
    expect(await argsOf('recorded-monorag')).toMatch(new RegExp(`^index ${root} --from-queue --quiet --hook post-commit --queued \\d+ --queue-file ${dataDir}/queue/\\S+\\.paths\n$`));
  });

  it('log one line when a running indexer will take the queued paths', async () => {
    const root = repo();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-hooks-data-'));
    await installGitHooks({ root, dataDir, command });
    // This live test process stands in for an indexer holding the lock.
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'index.lock'), `${process.pid}\n`);
    writeFileSync(path.join(root, 'c.ts'), 'c');
    writeFileSync(path.join(root, 'a.ts'), 'a2');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'two');
    const lines = readFileSync(path.join(dataDir, 'hooks.log'), 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ post-commit: 2 path\\(s\\) enqueued; the running indexer \\(pid ${process.pid}\\) will index them$`));
  });
});
