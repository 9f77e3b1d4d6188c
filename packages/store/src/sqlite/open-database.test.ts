import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@monorag/shared';
import { CONTRACT_IDENTITY } from '../contract/chunk-store-contract.js';
import { openSqliteStore } from '../sqlite-store.js';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Another process creating the same new index: it opens `file` in SQLite's default rollback mode,
 * takes the write lock with a table created, prints `locked`, and commits after `holdMs`.
 */
const HOLDER = `
const Database = require('better-sqlite3');
const [file, holdMs] = process.argv.slice(1);
const db = new Database(file);
db.exec('BEGIN IMMEDIATE; CREATE TABLE other_process (x)');
process.stdout.write('locked\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(holdMs));
`;

describe('two processes creating the same new index at once', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  async function holdWriteLock(file: string, holdMs: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['-e', HOLDER, file, String(holdMs)], { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => child.kill());
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code} before locking`)));
      child.stdout.once('data', () => resolve());
    });
    return child;
  }

  function newIndexPath(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-open-race-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return path.join(dir, 'index.db');
  }

  it('waits for the other process to commit instead of failing with "database is locked" (the WAL switch was refused at once)', async () => {
    const file = newIndexPath();
    await holdWriteLock(file, 400);
    const started = Date.now();
    const store = await openSqliteStore({ file, identity: CONTRACT_IDENTITY, busyTimeoutMs: 5000 });
    const waited = Date.now() - started;
    await store.close();
    expect(waited).toBeGreaterThanOrEqual(300);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('other_process', 'chunks') ORDER BY name").pluck().all();
      expect(tables).toEqual(['chunks', 'other_process']);
    } finally {
      db.close();
    }
  });

  it('still gives up after the busy timeout, naming the file', async () => {
    const file = newIndexPath();
    await holdWriteLock(file, 3000);
    const started = Date.now();
    const opening = openSqliteStore({ file, identity: CONTRACT_IDENTITY, busyTimeoutMs: 300 });
    await expect(opening).rejects.toMatchObject({ code: ErrorCode.STORE_FAILED, message: `The index ${file} could not be opened: database is locked.` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
