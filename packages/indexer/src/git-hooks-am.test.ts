import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installGitHooks, uninstallGitHooks } from './git-hooks.js';
import { CHAINED_SUFFIX, HOOK_MARKER, hookLines } from './hook-scripts.js';
import { readPathQueue, readQueueFile } from './path-queue.js';
import { committedRepo, git, sideBranchBehindMain } from './test-git-repo.js';

const repo = (): string => committedRepo('monorag-hooks-am-');

function temp(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

/**
 * Two patches of `git format-patch`, made in a clone of `root`: the first changes a.ts, deletes b.ts and
 * adds src/new.ts, the second renames src/new.ts to src/moved.ts. Returns the patch files, in order.
 */
function patchesFrom(root: string): string[] {
  const other = temp('monorag-hooks-am-other-');
  git(other, 'clone', '-q', root, '.');
  git(other, 'config', 'user.email', 'o@example.com');
  git(other, 'config', 'user.name', 'o');
  writeFileSync(path.join(other, 'a.ts'), 'a2');
  rmSync(path.join(other, 'b.ts'));
  mkdirSync(path.join(other, 'src'));
  writeFileSync(path.join(other, 'src', 'new.ts'), 'n');
  git(other, 'add', '-A');
  git(other, 'commit', '-q', '-m', 'change, delete, add');
  git(other, 'mv', 'src/new.ts', 'src/moved.ts');
  git(other, 'commit', '-q', '-m', 'rename');
  const out = temp('monorag-hooks-am-patches-');
  return git(other, 'format-patch', '-M', '-o', out, 'HEAD~2').trim().split('\n');
}

/** The paths of each queue file, each list sorted, in the order of their first path. */
function queuedPerFile(dataDir: string, hook: string): string[][] {
  const dir = path.join(dataDir, 'queue');
  const files = readdirSync(dir).filter((f) => f.endsWith('.paths'));
  expect(files.every((f) => f.endsWith(`-${hook}.paths`))).toBe(true);
  return files.map((f) => readQueueFile(path.join(dir, f)).paths.sort()).sort((x, y) => x[0]!.localeCompare(y[0]!));
}

const PATCH_PATHS = [['a.ts', 'b.ts', 'src/new.ts'], ['src/moved.ts', 'src/new.ts']];

// `true` stands in for monorag: the hooks' background start must not matter to what they queue.
const command = ['true'];

describe('git hooks and git am', () => {
  it('queue the paths each patch `git am` commits changed (post-applypatch), after a post-applypatch hook of the user\'s, which uninstall puts back', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    const patches = patchesFrom(root);
    const hooksDir = path.join(root, '.git', 'hooks');
    const log = path.join(root, '.git', 'user-hook.log');
    const userHook = `#!/bin/sh\necho ran "$@" >> '${log}'\n`;
    writeFileSync(path.join(hooksDir, 'post-applypatch'), userHook);
    chmodSync(path.join(hooksDir, 'post-applypatch'), 0o755);

    const installed = await installGitHooks({ root, dataDir, command });
    expect(installed.hooks['post-applypatch']).toBe('chained');
    git(root, 'am', '-q', ...patches);

    expect(readFileSync(log, 'utf8')).toBe('ran\nran\n');
    expect(queuedPerFile(dataDir, 'post-applypatch')).toEqual(PATCH_PATHS);
    expect(readPathQueue(dataDir).full).toBe(false);

    const removed = await uninstallGitHooks({ root });
    expect(removed.hooks['post-applypatch']).toBe('restored');
    expect(readFileSync(path.join(hooksDir, 'post-applypatch'), 'utf8')).toBe(userHook);
    expect(readdirSync(hooksDir).filter((f) => f.endsWith(CHAINED_SUFFIX))).toEqual([]);
  });

  it('under husky, add the lines to .husky/post-applypatch after the user\'s own, and queue what a `git am` patch changed', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    const husky = path.join(root, '.husky');
    mkdirSync(path.join(husky, '_'), { recursive: true });
    // husky 9's runner and a shim for post-applypatch, one of the hooks husky writes shims for.
    writeFileSync(path.join(husky, '_', 'h'), '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n');
    const shim = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n';
    writeFileSync(path.join(husky, '_', 'post-applypatch'), shim);
    chmodSync(path.join(husky, '_', 'post-applypatch'), 0o755);
    git(root, 'config', 'core.hooksPath', '.husky/_');
    const log = path.join(root, '.git', 'user-hook.log');
    const userHook = `echo ran >> '${log}'\n`;
    writeFileSync(path.join(husky, 'post-applypatch'), userHook);

    const result = await installGitHooks({ root, dataDir, command });
    expect(result.via).toBe('husky');
    expect(result.hooks['post-applypatch']).toBe('chained');
    expect(readFileSync(path.join(husky, 'post-applypatch'), 'utf8')).toBe(`${userHook}${hookLines('post-applypatch').join('\n')}\n`);
    expect(readFileSync(path.join(husky, '_', 'post-applypatch'), 'utf8')).toBe(shim);
    git(root, 'am', '-q', patchesFrom(root)[0]!);

    expect(readFileSync(log, 'utf8')).toBe('ran\n');
    expect(queuedPerFile(dataDir, 'post-applypatch')).toEqual([PATCH_PATHS[0]]);
    expect((await uninstallGitHooks({ root })).hooks['post-applypatch']).toBe('restored');
    expect(readFileSync(path.join(husky, 'post-applypatch'), 'utf8')).toBe(userHook);
  });

  it('queue a `git rebase --apply` from post-rewrite, at its end, not from the post-applypatch of each picked commit', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    sideBranchBehindMain(root, ['s1.ts', 's2.ts']);
    await installGitHooks({ root, dataDir, command });
    git(root, 'rebase', '-q', '--apply', 'main');
    const files = readdirSync(path.join(dataDir, 'queue'));
    // (Its first checkout, made before rebase-apply exists, fires post-checkout, which queues too.)
    expect(files.filter((f) => f.endsWith('-post-applypatch.paths'))).toEqual([]);
    const rewritten = files.filter((f) => f.endsWith('-post-rewrite.paths'));
    expect(rewritten).toHaveLength(1);
    expect(readQueueFile(path.join(dataDir, 'queue', rewritten[0]!)).paths).toEqual(['m.ts']);
  });

  it('an install over an earlier monorag\'s, which had no post-applypatch hook, adds it', async () => {
    const root = repo();
    const dataDir = path.join(root, '.monorag');
    await installGitHooks({ root, dataDir, command });
    // What an earlier monorag left: the other hooks and scripts, none for post-applypatch.
    rmSync(path.join(root, '.git', 'hooks', 'post-applypatch'));
    rmSync(path.join(root, '.git', 'monorag-hooks', 'post-applypatch'));
    const patches = patchesFrom(root);
    git(root, 'am', '-q', patches[0]!);
    expect(readPathQueue(dataDir).paths).toEqual([]);

    const again = await installGitHooks({ root, dataDir, command });
    expect(again.hooks).toEqual({ 'post-commit': 'updated', 'post-merge': 'updated', 'post-checkout': 'updated', 'post-rewrite': 'updated', 'post-applypatch': 'installed' });
    expect(readFileSync(path.join(root, '.git', 'hooks', 'post-applypatch'), 'utf8')).toContain(HOOK_MARKER);
    git(root, 'am', '-q', patches[1]!);
    expect(queuedPerFile(dataDir, 'post-applypatch')).toEqual([PATCH_PATHS[1]]);
  });
});
