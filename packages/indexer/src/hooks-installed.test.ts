import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installGitHooks } from './git-hooks.js';
import { createHooksInstalledCheck } from './hooks-installed.js';

const git = (root: string, ...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

describe('createHooksInstalledCheck', () => {
  it('is true once the hooks are installed, and false again when core.hooksPath moves to a folder that does not run them', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-hooks-installed-')));
    git(root, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(root, 'a.ts'), 'a');
    const check = createHooksInstalledCheck(root, 0);
    expect(await check()).toBe(false);
    await installGitHooks({ root, dataDir: path.join(root, '.monorag'), command: ['true'] });
    expect(await check()).toBe(true);
    // husky adopted after the install: git now runs other hooks, and none of them calls monorag's scripts.
    git(root, 'config', 'core.hooksPath', realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-other-hooks-'))));
    expect(await check()).toBe(false);
  });

  it('is true for an install by an earlier monorag, without the post-applypatch hook: every commit still queues', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-hooks-installed-')));
    git(root, 'init', '-q', '-b', 'main');
    await installGitHooks({ root, dataDir: path.join(root, '.monorag'), command: ['true'] });
    rmSync(path.join(root, '.git', 'hooks', 'post-applypatch'));
    rmSync(path.join(root, '.git', 'monorag-hooks', 'post-applypatch'));
    expect(await createHooksInstalledCheck(root, 0)()).toBe(true);
  });

  it('is false outside git', async () => {
    expect(await createHooksInstalledCheck(realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-no-git-'))), 0)()).toBe(false);
  });
});
