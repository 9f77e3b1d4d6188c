import { describe, expect, it } from 'vitest';
import { guardStore } from './store-error.js';

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
});
