import { existsSync, statSync } from 'node:fs';

/** The inode of `file`, or undefined when it does not exist. A rebuild swapped in by rename gives the index file a new inode. */
export function inodeOf(file: string): number | undefined {
  return existsSync(file) ? statSync(file).ino : undefined;
}
