import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveWatcher, registerWatcher, WATCHERS_DIR } from './watcher-registry.js';

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('the watcher registry of a data directory', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = (): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-watchers-'));
    dirs.push(dir);
    return dir;
  };

  it('names this process while it watches, and no one once it released', () => {
    const dir = dataDir();
    expect(liveWatcher(dir, '/project')).toBeNull();
    const registration = registerWatcher(dir, '/project');
    expect(liveWatcher(dir, '/project')).toBe(process.pid);
    registration.release();
    registration.release();
    expect(liveWatcher(dir, '/project')).toBeNull();
    expect(existsSync(path.join(dir, WATCHERS_DIR, String(process.pid)))).toBe(false);
  });

  it('ignores the file of a process killed while it watched, and the next watcher removes it', () => {
    const dir = dataDir();
    const registration = registerWatcher(dir, '/project');
    registration.release();
    const dead = deadPid();
    const left = path.join(dir, WATCHERS_DIR, String(dead));
    writeFileSync(left, `${dead}\n`);
    writeFileSync(path.join(dir, WATCHERS_DIR, 'notes.txt'), 'not a pid\n');
    expect(liveWatcher(dir, '/project')).toBeNull();
    const next = registerWatcher(dir, '/project');
    expect(existsSync(left)).toBe(false);
    expect(liveWatcher(dir, '/project')).toBe(process.pid);
    next.release();
  });

  it('names only a watcher of the same project root: a folder copied or moved with its data directory is not watched by the original\'s watcher (trial)', () => {
    const dir = dataDir();
    const registration = registerWatcher(dir, '/work/p');
    expect(readFileSync(path.join(dir, WATCHERS_DIR, String(process.pid)), 'utf8')).toBe(`${process.pid}\n/work/p\n`);
    expect(liveWatcher(dir, '/work/p')).toBe(process.pid);
    expect(liveWatcher(dir, '/work/p.old')).toBeNull();
    registration.release();
    // A file written before roots were recorded still counts.
    writeFileSync(path.join(dir, WATCHERS_DIR, String(process.pid)), `${process.pid}\n`);
    expect(liveWatcher(dir, '/work/p.old')).toBe(process.pid);
  });
});
