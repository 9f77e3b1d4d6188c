import { realpathSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { prefixAsOnDisk } from './disk-spelling.js';

/** Longest path accepted, in bytes of UTF-8: Linux's PATH_MAX (4,096, with its terminating NUL), the largest of the common systems. */
export const MAX_PATH_BYTES = 4096;

function relativeInside(root: string, absolute: string): string | undefined {
  const rel = path.relative(root, absolute);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel;
}

/** `absolute`'s path relative to `root`, spelt as on disk ({@link prefixAsOnDisk}); undefined when it lies outside `root`. */
function onDiskInside(root: string, absolute: string): string | undefined {
  return relativeInside(root, absolute) === undefined ? undefined : relativeInside(root, prefixAsOnDisk(root, absolute));
}

/**
 * The repo-relative POSIX path prefix a search is scoped to, from a user-given prefix: a relative
 * prefix is taken as repo-relative (`./src/` and `src/` both give `src/`); an absolute one inside the
 * project is made relative to it, also through symbolic links (e.g. `/tmp` -> `/private/tmp`). A
 * trailing slash is kept, since a prefix need not be a whole directory name. The project root itself
 * gives undefined (no scope). The prefix need not exist; when it names (or starts) an entry that is on
 * disk only in the other Unicode normalisation form (NFC vs NFD), it is spelt as on disk, since the
 * index keeps paths as the disk spells them.
 * @param root Absolute real path of the project root.
 * @param argName Name of the flag or tool argument, used in error messages (e.g. `--path`).
 * @throws MonoragError `INVALID_ARGUMENT` naming the argument when the prefix is longer than
 *   {@link MAX_PATH_BYTES}; `PATH_OUTSIDE_PROJECT` naming the argument and the path when it lies outside the project.
 */
export function resolvePathPrefix(root: string, prefix: string, argName = 'path'): string | undefined {
  const bytes = Buffer.byteLength(prefix);
  if (bytes > MAX_PATH_BYTES) {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `${argName}: the path is ${bytes} bytes long; no file system path is longer than ${MAX_PATH_BYTES} bytes. Give a file or directory inside the project.`,
    );
  }
  const trailing = /[\\/]$/.test(prefix) ? '/' : '';
  let rel: string | undefined;
  if (path.isAbsolute(prefix)) {
    rel = onDiskInside(root, path.resolve(prefix));
    if (rel === undefined) {
      try {
        rel = relativeInside(root, realpathSync(prefix));
      } catch (error) {
        // A prefix that does not exist (part of a name) cannot be followed through links; it stays outside.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
      }
    }
  } else {
    rel = onDiskInside(root, path.resolve(root, prefix));
  }
  if (rel === undefined) {
    throw new MonoragError(
      ErrorCode.PATH_OUTSIDE_PROJECT,
      `${argName}: ${prefix} is outside the project ${root}; give a path inside it, relative to the project root or absolute.`,
    );
  }
  if (rel === '') return undefined;
  return rel.split(path.sep).join('/') + trailing;
}
