import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@monorag/shared';
import { openSqliteStore } from '@monorag/store';
import { recordIndexOwner } from './index-owner.js';
import { prepareDataDir } from './prepare-data-dir.js';
import { createProjectContext } from './project-context.js';

describe('prepareDataDir', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A git repository in a temp dir (real path). */
  function repo(name: string): string {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), `monorag-prepare-${name}-`)));
    dirs.push(root);
    execFileSync('git', ['init', '-q'], { cwd: root });
    return root;
  }
  const exclude = (root: string): string => readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8');

  it("refuses another project's index before writing anything: the project's .git/info/exclude keeps its entry", async () => {
    const a = createProjectContext({ project: repo('a'), argName: '<path>' });
    await prepareDataDir(a);
    const store = await openSqliteStore({ file: a.storeFile, identity: { model: 'm', dim: 4, chunkerVersion: 'v' } });
    await recordIndexOwner(a, store);
    await store.close();
    const b = createProjectContext({ project: repo('b'), argName: '<path>' });
    expect(await prepareDataDir(b)).toBe('/.monorag/');
    const before = exclude(b.root);
    expect(before).toContain('/.monorag/');
    // b pointed at a's data directory (MONORAG_DATA_DIR or --data-dir for one command): refused, nothing written.
    const wrong = createProjectContext({ project: b.root, argName: '<path>', overrides: { dataDir: a.dataDir } });
    await expect(prepareDataDir(wrong)).rejects.toMatchObject({
      code: ErrorCode.INVALID_ARGUMENT,
      message: expect.stringContaining(`belongs to the project ${a.root}, not to ${b.root}`),
    });
    expect(exclude(b.root)).toBe(before);
  });

  it('keeps an earlier data directory that still holds an index excluded when the data directory moves out (a trial: git status then listed .monorag/)', async () => {
    const b = createProjectContext({ project: repo('moved'), argName: '[path]' });
    await prepareDataDir(b);
    const store = await openSqliteStore({ file: b.storeFile, identity: { model: 'm', dim: 4, chunkerVersion: 'v' } });
    await store.close();
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-prepare-outside-')));
    dirs.push(outside);
    const elsewhere = createProjectContext({ project: b.root, argName: '[path]', overrides: { dataDir: outside } });
    expect(await prepareDataDir(elsewhere)).toBeUndefined();
    expect(exclude(b.root)).toContain('/.monorag/\n');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: b.root, encoding: 'utf8' })).toBe('');
    // Once that index is gone, the entry goes with it (files later put in the folder are seen again).
    rmSync(b.dataDir, { recursive: true, force: true });
    await prepareDataDir(elsewhere);
    expect(exclude(b.root)).not.toContain('/.monorag/');
  });
});
