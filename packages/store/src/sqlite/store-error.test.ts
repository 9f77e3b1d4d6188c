import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { guardStore } from './store-error.js';

// Directories whose write access fails with EROFS, as on a read-only mount (which a test cannot make).
const readOnlyDirs = vi.hoisted(() => new Set<string>());
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const accessSync = ((target: string, mode?: number) => {
    if (readOnlyDirs.has(String(target))) throw Object.assign(new Error(`EROFS: read-only file system, access '${target}'`), { code: 'EROFS' });
    return actual.accessSync(target, mode);
  }) as typeof actual.accessSync;
  return { ...actual, default: { ...actual, accessSync }, accessSync };
});

const sqliteError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

describe('guardStore', () => {
  it('names the index file, its -wal and -shm and their directory when SQLite finds them read-only', () => {
    expect(() =>
      guardStore('/data/.monorag/index.sqlite', 'write the embedding cache', () => {
        throw sqliteError('SQLITE_READONLY', 'attempt to write a readonly database');
      }),
    ).toThrow(
      'The index /data/.monorag/index.sqlite could not write the embedding cache: it is read-only (attempt to write a readonly database). ' +
        'SQLite writes the index file, index.sqlite-wal and index.sqlite-shm beside it, and needs their directory writable: ' +
        'make all of them writable by this user (e.g. `chmod u+w /data/.monorag /data/.monorag/index.sqlite*`).',
    );
  });

  it('says how to rebuild a damaged file, and passes other errors on with the file and the action', () => {
    expect(() => guardStore('/x/index.sqlite', 'list files', () => { throw sqliteError('SQLITE_CORRUPT', 'database disk image is malformed'); })).toThrow(/is damaged and could not list files .*monorag index --rebuild/);
    expect(() => guardStore('/x/index.sqlite', 'list files', () => { throw sqliteError('SQLITE_BUSY', 'database is locked'); })).toThrow('The index /x/index.sqlite could not list files: database is locked.');
  });

  it('says why SQLite cannot open the index (a trial: "unable to open database file" on a read-only mount) and the way out', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-cantopen-'));
    try {
      const file = path.join(dir, 'index.sqlite');
      const cantOpen = (): never => {
        throw sqliteError('SQLITE_CANTOPEN', 'unable to open database file');
      };
      readOnlyDirs.add(dir);
      expect(() => guardStore(file, 'be opened', cantOpen)).toThrow(
        `The index ${file} could not be opened (unable to open database file): its directory ${dir} is on a read-only file system. ` +
          'Make it writable, or keep the index in a writable directory with --data-dir (or MONORAG_DATA_DIR).',
      );
      readOnlyDirs.delete(dir);
      const missing = path.join(dir, 'gone', 'index.sqlite');
      expect(() => guardStore(missing, 'be opened', cantOpen)).toThrow(`could not be opened (unable to open database file): its directory ${path.join(dir, 'gone')} does not exist.`);
      // Nothing on the file system explains it: SQLite's own words.
      expect(() => guardStore(file, 'be opened', cantOpen)).toThrow(`The index ${file} could not be opened: unable to open database file.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
