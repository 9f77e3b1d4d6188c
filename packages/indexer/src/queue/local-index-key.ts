import { createHash } from 'node:crypto';

/**
 * The queue key of a project key `key` whose index is a file only this checkout writes (a SQLite store in
 * the absolute data directory `dataDir`): `<key>-<first 8 hex of sha256(dataDir)>`. Two checkouts (or two
 * data directories) given one key keep two queues, each for the workers writing its own index; one queue
 * let one checkout's workers take the other's jobs and index their own copy of the files.
 */
export function localIndexKey(key: string, dataDir: string): string {
  return `${key}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 8)}`;
}
