import path from 'node:path';

/**
 * Absolute paths that read as `chmod 000` makes them for any user but root (tests here may run as root):
 * `readFile` of such a file and `readdir` of such a directory fail with EACCES. Shared by the module
 * {@link lockedFsPromises} builds and the test that adds to it.
 */
export const locked = new Set<string>();

/** The `node:fs/promises` module. */
type FsPromises = typeof import('node:fs/promises');

/** An EACCES error as Node gives it for `syscall` on `target`. */
function permissionDenied(syscall: 'open' | 'scandir', target: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EACCES: permission denied, ${syscall} '${target}'`), { code: 'EACCES', errno: -13, syscall, path: target });
}

/**
 * `node:fs/promises` with `readFile` and `readdir` failing for the {@link locked} paths, for a test's
 * `vi.mock('node:fs/promises', async (importOriginal) => (await import('./test-locked-fs.js')).lockedFsPromises(await importOriginal()))`.
 */
export function lockedFsPromises(actual: FsPromises): FsPromises & { default: FsPromises } {
  const readFile = (async (file: string, options?: unknown) => {
    if (locked.has(path.resolve(String(file)))) throw permissionDenied('open', String(file));
    return actual.readFile(file, options as never);
  }) as typeof actual.readFile;
  const readdir = (async (dir: string, options?: unknown) => {
    if (locked.has(path.resolve(String(dir)))) throw permissionDenied('scandir', String(dir));
    return actual.readdir(dir, options as never);
  }) as typeof actual.readdir;
  return { ...actual, default: { ...actual, readFile, readdir }, readFile, readdir };
}
