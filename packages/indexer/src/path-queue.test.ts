import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueuePaths, FULL_RUN_MARK, PATH_QUEUE_DIR, pathQueueLength, readPathQueue, readQueueFile } from './path-queue.js';

describe('the path queue of a data directory', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A data directory with three queue files (one asking for a full run), the first two written `ageMs` ago; returns their paths. */
  const threeFiles = (ageMs: number): { dataDir: string; files: string[] } => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-path-queue-'));
    dirs.push(dataDir);
    const queueDir = path.join(dataDir, PATH_QUEUE_DIR);
    const written = (): string[] => readdirSync(queueDir).filter((n) => n.endsWith('.paths')).map((n) => path.join(queueDir, n));
    enqueuePaths(dataDir, ['src/a.ts', 'src/b.ts']);
    const [first] = written();
    enqueuePaths(dataDir, [FULL_RUN_MARK]);
    const second = written().find((f) => f !== first)!;
    const old = new Date(Date.now() - ageMs);
    for (const file of [first!, second]) utimesSync(file, old, old);
    enqueuePaths(dataDir, ['src/c.ts', 'src/a.ts']);
    const third = written().find((f) => f !== first && f !== second)!;
    return { dataDir, files: [first!, second, third] };
  };

  it("reads a hook's own file alone, and only files old enough (left behind) without it", () => {
    const { dataDir, files } = threeFiles(120_000);
    const own = readQueueFile(files[2]!);
    expect({ paths: own.paths.sort(), full: own.full, entries: own.entries }).toEqual({ paths: ['src/a.ts', 'src/c.ts'], full: false, entries: 1 });
    const left = readPathQueue(dataDir, { minAgeMs: 60_000, except: files[2] });
    expect({ paths: left.paths.sort(), full: left.full, entries: left.entries }).toEqual({ paths: ['src/a.ts', 'src/b.ts'], full: true, entries: 2 });
    // Nothing written a minute ago or earlier but the two old files; the own file is left out even when old.
    expect(readPathQueue(dataDir, { minAgeMs: 60_000 }).entries).toBe(2);
    expect(readPathQueue(dataDir, { except: files[0] }).entries).toBe(2);
    own.remove();
    expect(pathQueueLength(dataDir)).toBe(2);
    expect(readQueueFile(files[2]!).entries).toBe(0);
    left.remove();
    expect(pathQueueLength(dataDir)).toBe(0);
  });

  it('reads every file by default', () => {
    const { dataDir } = threeFiles(0);
    const all = readPathQueue(dataDir);
    expect({ paths: all.paths.sort(), full: all.full, entries: all.entries }).toEqual({ paths: ['src/a.ts', 'src/b.ts', 'src/c.ts'], full: true, entries: 3 });
  });

  it('keeps a name holding a newline as one path, and reads the newline-separated files of hooks an older monorag installed', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'monorag-path-queue-'));
    dirs.push(dataDir);
    enqueuePaths(dataDir, ['src/new\nline.ts', 'src/b.ts']);
    writeFileSync(path.join(dataDir, PATH_QUEUE_DIR, '1-1-post-commit.paths'), `src/old.ts\n${FULL_RUN_MARK}\n`);
    const all = readPathQueue(dataDir);
    expect({ paths: all.paths.sort(), full: all.full, entries: all.entries }).toEqual({ paths: ['src/b.ts', 'src/new\nline.ts', 'src/old.ts'], full: true, entries: 2 });
  });
});
