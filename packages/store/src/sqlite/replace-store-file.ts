import { renameSync, rmSync } from 'node:fs';

/**
 * Puts the SQLite index `from` (a finished rebuild, closed) in the place of `to`: removes `to`'s
 * `-wal`, `-shm` and `-journal` companions first, so the old file's WAL is never replayed onto the new
 * one, then renames `from` over `to` atomically (processes that hold `to` open see a new inode and
 * reopen it). Close every store on `from` first.
 * @throws the file system's error when the rename fails.
 */
export function replaceStoreFile(from: string, to: string): void {
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${to}${suffix}`, { force: true });
  renameSync(from, to);
}
