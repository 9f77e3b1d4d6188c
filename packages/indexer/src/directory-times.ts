import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { changedAt } from './changed-at.js';

/**
 * When the directories above a repo-relative file last changed, for files the index does not hold:
 * `mv` of a directory into the project (or a rename of one inside it) keeps its files' own times, old,
 * but changes the moved directory's status-change time, so a file under it is new to the index though
 * its times say otherwise. Returns, for a path, the latest {@link changedAt} of the directories between
 * the project root (excluded: its time moves with every top-level entry) and the file, in ms since the
 * Unix epoch; 0 for a top-level file or when none can be examined. Each directory is examined once.
 * A directory also changes when an entry is added to it or removed, so a file the index leaves out
 * beside such a change counts too, until the next run.
 */
export function createDirectoryTimes(root: string): (relPath: string) => Promise<number> {
  const times = new Map<string, Promise<number>>();
  const timeOf = (dir: string): Promise<number> => {
    let time = times.get(dir);
    if (time === undefined) {
      const parent = path.posix.dirname(dir);
      const own = lstat(path.join(root, dir)).then(changedAt, () => 0);
      time = Promise.all([own, parent === '.' ? 0 : timeOf(parent)]).then(([a, b]) => Math.max(a, b));
      times.set(dir, time);
    }
    return time;
  };
  return async (relPath) => {
    const dir = path.posix.dirname(relPath);
    return dir === '.' ? 0 : timeOf(dir);
  };
}
