import { rmSync } from 'node:fs';

/**
 * Removes the SQLite index `file` and its `-wal` and `-shm` companions (for `monorag index --rebuild`).
 * Missing files are ignored. Close every store on the file first.
 */
export function deleteStoreFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}
