import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    expect(liveWatcher(dir)).toBeNull();
    const registration = registerWatcher(dir);
    expect(liveWatcher(dir)).toBe(process.pid);
    registration.release();
    registration.release();
    expect(liveWatcher(dir)).toBeNull();
    expect(existsSync(path.join(dir, WATCHERS_DIR, String(process.pid)))).toBe(false);
  });

  it('ignores the file of a process killed while it watched, and the next watcher removes it', () => {
    const dir = dataDir();
    const registration = registerWatcher(dir);
    registration.release();
    const dead = deadPid();
    const left = path.join(dir, WATCHERS_DIR, String(dead));
    writeFileSync(left, `${dead}\n`);
    writeFileSync(path.join(dir, WATCHERS_DIR, 'notes.txt'), 'not a pid\n');
    expect(liveWatcher(dir)).toBeNull();
    const next = registerWatcher(dir);
    expect(existsSync(left)).toBe(false);
    expect(liveWatcher(dir)).toBe(process.pid);
    next.release();
  });
});
