import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installGitHooks, uninstallGitHooks } from './git-hooks.js';
import { CHAINED_SUFFIX, HOOK_MARKER, hookLines } from './hook-scripts.js';
import { readPathQueue } from './path-queue.js';
import { committedRepo, git, sideBranchBehindMain } from './test-git-repo.js';

const repo = (): string => committedRepo('monorag-hooks-');

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
    expect(first.hooks).toEqual({ 'post-commit': 'chained', 'post-merge': 'installed', 'post-checkout': 'installed', 'post-rewrite': 'installed', 'post-applypatch': 'installed' });
    const again = await installGitHooks({ root, dataDir, command });
    expect(Object.values(again.hooks)).toEqual(['updated', 'updated', 'updated', 'updated', 'updated']);

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
    expect(removed.hooks).toEqual({ 'post-commit': 'restored', 'post-merge': 'removed', 'post-checkout': 'removed', 'post-rewrite': 'removed', 'post-applypatch': 'removed' });
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
    expect(readFileSync(first.trim().split(' --queue-file ')[1]!, 'utf8')).toBe('c.ts\0');
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

  it('fire for the work tree they run in: each linked work tree queues into its own data directory, and uninstalling one keeps the others\' hooks', async () => {
    const main = repo();
    const mainData = path.join(main, '.monorag');
    const linked = path.join(path.dirname(main), `${path.basename(main)}-wt`);
    git(main, 'worktree', 'add', '-q', linked, '-b', 'side');
    const linkedData = path.join(linked, '.monorag');
    const commitIn = (root: string, file: string): void => {
      writeFileSync(path.join(root, file), file);
      git(root, 'add', file);
      git(root, 'commit', '-q', '-m', file);
    };
    const queued = (dataDir: string): string[] => {
      const q = readPathQueue(dataDir);
      q.remove();
      return q.paths;
    };

    expect((await installGitHooks({ root: main, dataDir: mainData, command })).hooks['post-commit']).toBe('installed');
    // Before the linked work tree installs, its commits queue nothing anywhere.
    commitIn(linked, 'early.ts');
    expect(queued(mainData)).toEqual([]);
    const second = await installGitHooks({ root: linked, dataDir: linkedData, command });
    expect(second.hooks['post-commit']).toBe('updated');
    expect(second.hooksDir).toBe(path.join(main, '.git', 'hooks'));
    expect(second.scriptsDir).toBe(path.join(main, '.git', 'worktrees', path.basename(linked), 'monorag-hooks'));

    commitIn(main, 'm.ts');
    expect(queued(mainData)).toEqual(['m.ts']);
    expect(queued(linkedData)).toEqual([]);
    commitIn(linked, 'l.ts');
    expect(queued(linkedData)).toEqual(['l.ts']);
    expect(queued(mainData)).toEqual([]);

    const off = await uninstallGitHooks({ root: linked });
    expect(off.hooks).toEqual({ 'post-commit': 'kept', 'post-merge': 'kept', 'post-checkout': 'kept', 'post-rewrite': 'kept', 'post-applypatch': 'kept' });
    expect(off.otherWorkTrees).toEqual([main]);
    commitIn(linked, 'l2.ts');
    expect(queued(linkedData)).toEqual([]);
    commitIn(main, 'm2.ts');
    expect(queued(mainData)).toEqual(['m2.ts']);
    expect((await uninstallGitHooks({ root: main })).hooks['post-commit']).toBe('removed');
    expect(existsSync(path.join(main, '.git', 'hooks', 'post-commit'))).toBe(false);
  });

  it('under husky (core.hooksPath .husky/_), add two lines to .husky/<hook> after the user\'s own, leave husky\'s shims alone, and take exactly those lines out again', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    const husky = path.join(root, '.husky');
    mkdirSync(path.join(husky, '_'), { recursive: true });
    // husky 9's runner and shims, as `husky` writes them: a shim finds the user's hook by its own file name.
    const runner = '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\nc=$?\nexit $c\n';
    writeFileSync(path.join(husky, '_', 'h'), runner);
    const shim = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n';
    for (const name of ['post-commit', 'post-merge', 'post-checkout', 'post-rewrite', 'post-applypatch']) {
      writeFileSync(path.join(husky, '_', name), shim);
      chmodSync(path.join(husky, '_', name), 0o755);
    }
    git(root, 'config', 'core.hooksPath', '.husky/_');
    const log = path.join(root, 'user-hook.log');
    const userHook = `echo ran >> '${log}'\n`;
    writeFileSync(path.join(husky, 'post-commit'), userHook);

    const result = await installGitHooks({ root, dataDir, command });
    expect(result.via).toBe('husky');
    expect(result.hooks).toEqual({ 'post-commit': 'chained', 'post-merge': 'installed', 'post-checkout': 'installed', 'post-rewrite': 'installed', 'post-applypatch': 'installed' });
    expect(readFileSync(path.join(husky, '_', 'post-commit'), 'utf8')).toBe(shim);
    expect(readFileSync(path.join(husky, 'post-commit'), 'utf8')).toBe(`${userHook}${hookLines('post-commit').join('\n')}\n`);
    expect(readFileSync(path.join(husky, 'post-merge'), 'utf8')).toBe(`#!/bin/sh\n${hookLines('post-merge').join('\n')}\n`);
    expect((await installGitHooks({ root, dataDir, command })).hooks['post-commit']).toBe('updated');

    writeFileSync(path.join(root, 'c.ts'), 'c');
    git(root, 'add', 'c.ts');
    git(root, 'commit', '-q', '-m', 'two');
    expect(readFileSync(log, 'utf8')).toBe('ran\n');
    const q = readPathQueue(dataDir);
    expect(q.paths).toEqual(['c.ts']);
    q.remove();

    const removed = await uninstallGitHooks({ root });
    expect(removed.hooks).toEqual({ 'post-commit': 'restored', 'post-merge': 'removed', 'post-checkout': 'removed', 'post-rewrite': 'removed', 'post-applypatch': 'removed' });
    expect(readFileSync(path.join(husky, 'post-commit'), 'utf8')).toBe(userHook);
    expect(readdirSync(husky).sort()).toEqual(['_', 'post-commit']);
    expect(readFileSync(path.join(husky, '_', 'post-commit'), 'utf8')).toBe(shim);
  });

  it('with a hooks directory inside the work tree (a committed .githooks/), add the lines to its hooks, before a last exit, and rename nothing a commit could spread', async () => {
    const root = repo();
    const dataDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-hooks-data-')));
    const team = path.join(root, '.githooks');
    mkdirSync(team);
    const log = path.join(dataDir, 'team-hook.log');
    const teamHook = `#!/bin/sh\necho own >> '${log}'\nexit 0\n`;
    writeFileSync(path.join(team, 'post-commit'), teamHook);
    chmodSync(path.join(team, 'post-commit'), 0o755);
    git(root, 'config', 'core.hooksPath', '.githooks');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'team hooks');
    expect(readFileSync(log, 'utf8')).toBe('own\n');

    const result = await installGitHooks({ root, dataDir, command });
    expect(result.via).toBe('work-tree');
    expect(result.hooks).toEqual({ 'post-commit': 'chained', 'post-merge': 'installed', 'post-checkout': 'installed', 'post-rewrite': 'installed', 'post-applypatch': 'installed' });
    expect(readFileSync(path.join(team, 'post-commit'), 'utf8')).toBe(`#!/bin/sh\necho own >> '${log}'\n${hookLines('post-commit').join('\n')}\nexit 0\n`);
    expect(readdirSync(team).sort()).toEqual(['post-applypatch', 'post-checkout', 'post-commit', 'post-merge', 'post-rewrite']);
    expect(readFileSync(path.join(team, 'post-merge'), 'utf8')).not.toContain(dataDir);

    writeFileSync(path.join(root, 'c.ts'), 'c');
    git(root, 'add', 'c.ts');
    git(root, 'commit', '-q', '-m', 'two');
    expect(readFileSync(log, 'utf8')).toBe('own\nown\n');
    const q = readPathQueue(dataDir);
    expect(q.paths).toEqual(['c.ts']);
    q.remove();

    const removed = await uninstallGitHooks({ root });
    expect(removed.hooks).toEqual({ 'post-commit': 'restored', 'post-merge': 'removed', 'post-checkout': 'removed', 'post-rewrite': 'removed', 'post-applypatch': 'removed' });
    expect(readFileSync(path.join(team, 'post-commit'), 'utf8')).toBe(teamHook);
    expect(git(root, 'status', '--short')).toBe('');

    // Byte for byte, also without a final newline or with blank lines at the end.
    for (const text of ['#!/bin/sh\necho own', '#!/bin/sh\necho own\n\n\n']) {
      writeFileSync(path.join(team, 'post-commit'), text);
      await installGitHooks({ root, dataDir, command });
      expect(readFileSync(path.join(team, 'post-commit'), 'utf8')).toContain(HOOK_MARKER);
      await uninstallGitHooks({ root });
      expect(readFileSync(path.join(team, 'post-commit'), 'utf8')).toBe(text);
    }
  });

  it('queue names git would quote (a double quote, a tab, a backslash) as they are', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    await installGitHooks({ root, dataDir, command });
    const names = ['src/we "q".js', 'src/t\tab.js', 'src/back\\slash.js'];
    mkdirSync(path.join(root, 'src'));
    for (const name of names) writeFileSync(path.join(root, name), 'x');
    git(root, 'add', 'src');
    git(root, 'commit', '-q', '-m', 'odd names');
    const q = readPathQueue(dataDir);
    expect(q.paths.sort()).toEqual([...names].sort());
  });

  it('queue a name holding a newline as one path, counted once (NUL-ended queue files)', async () => {
    const root = repo();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-hooks-data-'));
    await installGitHooks({ root, dataDir, command });
    // A live indexer (this test process) holds the lock, so the hook logs what it queued.
    writeFileSync(path.join(dataDir, 'index.lock'), `${process.pid}\n`);
    mkdirSync(path.join(root, 'src'));
    for (const name of ['src/new\nline.ts', 'src/x.ts']) writeFileSync(path.join(root, name), 'x');
    git(root, 'add', 'src');
    git(root, 'commit', '-q', '-m', 'a newline in a name');
    expect(readPathQueue(dataDir).paths.sort()).toEqual(['src/new\nline.ts', 'src/x.ts']);
    const lines = readFileSync(path.join(dataDir, 'hooks.log'), 'utf8').split('\n').filter(Boolean);
    expect(lines.map((line) => line.replace(/^\S+Z /, ''))).toEqual([`post-commit: 2 path(s) enqueued; the running indexer (pid ${process.pid}) will index them`]);
  });

  it('queue a rebase once, from post-rewrite, not once per picked commit', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    sideBranchBehindMain(root, ['s1.ts', 's2.ts', 's3.ts']);
    await installGitHooks({ root, dataDir, command });
    git(root, 'rebase', '-q', 'main');
    const files = readdirSync(path.join(dataDir, 'queue')).filter((f) => f.endsWith('.paths'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/-post-rewrite\.paths$/);
    expect(readPathQueue(dataDir).paths.sort()).toEqual(['m.ts']);
  });

  it('under husky, an install over an earlier monorag\'s (which renamed husky\'s shims) puts the shims back, and drops the copies husky\'s reinstall left behind', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    const shims = path.join(root, '.husky', '_');
    mkdirSync(shims, { recursive: true });
    writeFileSync(path.join(shims, 'h'), '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n');
    const shim = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n';
    // post-commit: the earlier monorag's hook over the renamed shim; post-merge: husky rewrote the shim, the copy stayed.
    writeFileSync(path.join(shims, `post-commit${CHAINED_SUFFIX}`), shim);
    writeFileSync(path.join(shims, 'post-commit'), `#!/bin/sh\n${HOOK_MARKER}\nexit 0\n`);
    writeFileSync(path.join(shims, 'post-merge'), shim);
    writeFileSync(path.join(shims, `post-merge${CHAINED_SUFFIX}`), shim);
    for (const f of readdirSync(shims)) chmodSync(path.join(shims, f), 0o755);
    git(root, 'config', 'core.hooksPath', '.husky/_');
    const log = path.join(root, 'user-hook.log');
    writeFileSync(path.join(root, '.husky', 'post-commit'), `echo ran >> '${log}'\n`);

    expect((await installGitHooks({ root, dataDir, command })).via).toBe('husky');
    expect(readFileSync(path.join(shims, 'post-commit'), 'utf8')).toBe(shim);
    expect(readdirSync(shims).filter((f) => f.endsWith(CHAINED_SUFFIX))).toEqual([]);
    writeFileSync(path.join(root, 'c.ts'), 'c');
    git(root, 'add', 'c.ts');
    git(root, 'commit', '-q', '-m', 'two');
    expect(readFileSync(log, 'utf8')).toBe('ran\n');
    expect(readPathQueue(dataDir).paths).toEqual(['c.ts']);
  });

  it('leave a committed hook that is no shell script alone (skipped): shell lines would break it for the whole team', async () => {
    const root = repo();
    const team = path.join(root, '.githooks');
    mkdirSync(team);
    const python = '#!/usr/bin/env python3\nprint("merged")\n';
    writeFileSync(path.join(team, 'post-merge'), python);
    writeFileSync(path.join(team, 'post-commit'), '#!/usr/bin/env bash\necho own\n');
    git(root, 'config', 'core.hooksPath', '.githooks');
    const result = await installGitHooks({ root, dataDir: path.join(root, '.monorag'), command });
    expect(result.hooks).toEqual({ 'post-commit': 'chained', 'post-merge': 'skipped', 'post-checkout': 'installed', 'post-rewrite': 'installed', 'post-applypatch': 'installed' });
    expect(readFileSync(path.join(team, 'post-merge'), 'utf8')).toBe(python);
  });

  it('with a global core.hooksPath, uninstall in one repository keeps the shared hooks another repository\'s install relies on', async () => {
    const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-hooks-home-')));
    const shared = path.join(home, 'hooks');
    writeFileSync(path.join(home, '.gitconfig'), `[core]\n\thooksPath = ${shared}\n[user]\n\temail = t@example.com\n\tname = t\n`);
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const one = repo();
      const two = repo();
      expect((await installGitHooks({ root: one, dataDir: path.join(one, '.monorag'), command })).hooksDir).toBe(shared);
      await installGitHooks({ root: two, dataDir: path.join(two, '.monorag'), command });
      const off = await uninstallGitHooks({ root: one });
      expect(off.sharedBeyondRepository).toBe(true);
      expect(off.hooks['post-commit']).toBe('kept');
      writeFileSync(path.join(two, 'c.ts'), 'c');
      git(two, 'add', 'c.ts');
      git(two, 'commit', '-q', '-m', 'two');
      expect(readPathQueue(path.join(two, '.monorag')).paths).toEqual(['c.ts']);
      writeFileSync(path.join(one, 'd.ts'), 'd');
      git(one, 'add', 'd.ts');
      git(one, 'commit', '-q', '-m', 'one');
      expect(readPathQueue(path.join(one, '.monorag')).paths).toEqual([]);
    } finally {
      process.env.HOME = saved;
    }
  });
});
