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

/** Refuses `info` unless it is a regular file of at most `maxFileBytes` bytes. */
function checkRegular(info: Stats, rel: string, maxFileBytes: number): void {
  if (!info.isFile()) {
    const kind = describeKind(info);
    const what = kind === 'not a regular file' ? kind : `${kind}, not a regular file`;
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Argument "path": ${rel || '.'} is ${what}; only regular files can be read.`, { argument: 'path' });
  }
  if (info.size > maxFileBytes) {
    throw new MonoragError(ErrorCode.FILE_UNREADABLE, `Argument "path": ${rel} is ${info.size} bytes, over the ${maxFileBytes}-byte limit for reading.`, { argument: 'path' });
  }
}

/** A `FILE_UNREADABLE` error for a failed open or read of `rel`. */
function unreadable(rel: string, error: unknown): MonoragError {
  return new MonoragError(ErrorCode.FILE_UNREADABLE, `Cannot read ${rel}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, { cause: error });
}

/**
 * Reads the whole of `abs` (repo-relative `rel`, named in errors), which must be a regular file. Never
 * blocks on a special file: the kind is checked before opening, and the file is opened non-blocking and
 * checked again through its handle, so a named pipe put in its place in between is refused, not read.
 * @param maxFileBytes files larger than this many bytes are refused.
 * @throws MonoragError `INVALID_ARGUMENT` for a directory, named pipe, socket or device (naming the path
 *   and what it is), `FILE_UNREADABLE` for a file over `maxFileBytes` or one that cannot be opened or read.
 */
export async function readRegularFile(abs: string, rel: string, maxFileBytes: number): Promise<Buffer> {
  let info: Stats;
  try {
    info = await stat(abs);
  } catch (error) {
    throw unreadable(rel, error);
  }
  checkRegular(info, rel, maxFileBytes);
  let handle: FileHandle;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw unreadable(rel, error);
  }
  try {
    checkRegular(await handle.stat(), rel, maxFileBytes);
    return await handle.readFile();
  } catch (error) {
    throw error instanceof MonoragError ? error : unreadable(rel, error);
  } finally {
    await handle.close();
  }
}
