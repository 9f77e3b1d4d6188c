import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { ErrorCode, MonoragError } from '@monorag/shared';

/** What a path that is not a regular file is, in words (`a directory`, `a named pipe (FIFO)`, ...). */
export function describeKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** The errors {@link readRegularBytes} throws, worded by its caller. */
export interface RegularFileFaults {
  /** `info` is a directory, named pipe, socket or device ({@link describeKind} says which). */
  notRegular(info: Stats): Error;
  /** The file is `size` bytes, over the limit. */
  tooLarge(size: number): Error;
  /** `stat`, `open` or the read failed with `error` (ENOENT, EACCES, ...). */
  unreadable(error: NodeJS.ErrnoException): Error;
}

/**
 * Reads the whole of `abs`, which must be a regular file of at most `maxBytes` bytes. Never blocks on a
 * special file: the kind is checked before opening, and the file is opened non-blocking and checked
 * again through its handle, so a named pipe put in its place in between is refused, not read.
 * @throws the error `faults` makes for what went wrong.
 */
export async function readRegularBytes(abs: string, maxBytes: number, faults: RegularFileFaults): Promise<Buffer> {
  const check = (info: Stats): void => {
    if (!info.isFile()) throw faults.notRegular(info);
    if (info.size > maxBytes) throw faults.tooLarge(info.size);
  };
  let info: Stats;
  try {
    info = await stat(abs);
  } catch (error) {
    throw faults.unreadable(error as NodeJS.ErrnoException);
  }
  check(info);
  let handle: FileHandle;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw faults.unreadable(error as NodeJS.ErrnoException);
  }
  try {
    let again: Stats;
    try {
      again = await handle.stat();
    } catch (error) {
      throw faults.unreadable(error as NodeJS.ErrnoException);
    }
    check(again);
    try {
      return await handle.readFile();
    } catch (error) {
      throw faults.unreadable(error as NodeJS.ErrnoException);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Reads the whole of `abs` (repo-relative `rel`, named in errors), which must be a regular file
 * ({@link readRegularBytes}: never blocks on a special file).
 * @param maxFileBytes files larger than this many bytes are refused.
 * @throws MonoragError `INVALID_ARGUMENT` for a directory, named pipe, socket or device (naming the path
 *   and what it is), `FILE_UNREADABLE` for a file over `maxFileBytes` or one that cannot be opened or read.
 */
export function readRegularFile(abs: string, rel: string, maxFileBytes: number): Promise<Buffer> {
  return readRegularBytes(abs, maxFileBytes, {
    notRegular: (info) => {
      const kind = describeKind(info);
      const what = kind === 'not a regular file' ? kind : `${kind}, not a regular file`;
      return new MonoragError(ErrorCode.INVALID_ARGUMENT, `Argument "path": ${rel || '.'} is ${what}; only regular files can be read.`, { argument: 'path' });
    },
    tooLarge: (size) =>
      new MonoragError(ErrorCode.FILE_UNREADABLE, `Argument "path": ${rel} is ${size} bytes, over the ${maxFileBytes}-byte limit for reading.`, { argument: 'path' }),
    unreadable: (error) => new MonoragError(ErrorCode.FILE_UNREADABLE, `Cannot read ${rel}: ${error.code ?? error.message}.`, { cause: error }),
  });
}
