import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { printablePath } from '@monorag/shared';

/** A path given to an incremental run that leads through a symbolic link (see {@link pathThroughLink}). */
export interface PathThroughLink {
  /** The path as given. */
  given: string;
  /** The repo-relative directory on the way that is a symbolic link. */
  link: string;
  /** The repo-relative real path the given one leads to, when it exists inside the project; else undefined. */
  real?: string;
}

/**
 * Whether a repo-relative path given to an incremental run (`index --paths`, MCP `sync_index`) goes
 * through a symbolic link to a directory (`weird/loop/up/src/pool.ts` where `weird/loop` is a link):
 * the walk never follows links, so each file is indexed once under its real path, and such a path names
 * nothing a run would read. Reads the file system only; a path that does not exist is not judged here
 * (`unknownPaths` names it).
 * @param root absolute real path of the project root
 * @returns the link on the way and the real path, or undefined when no directory on the way is a link
 */
export function pathThroughLink(root: string, given: string): PathThroughLink | undefined {
  const parts = given.replace(/^\.\//, '').replace(/\/+$/, '').split('/').filter((part) => part !== '' && part !== '.');
  for (let i = 1; i < parts.length; i++) {
    const link = parts.slice(0, i).join('/');
    let isLink: boolean;
    try {
      isLink = lstatSync(path.join(root, link)).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EACCES') return undefined;
      throw error;
    }
    if (!isLink) continue;
    let real: string | undefined;
    try {
      const rel = path.relative(root, realpathSync(path.join(root, ...parts)));
      if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) real = rel.split(path.sep).join('/');
    } catch (error) {
      // A loop or a missing target: there is no real path to suggest.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ELOOP' && code !== 'ENOTDIR' && code !== 'EACCES') throw error;
    }
    return { given, link, ...(real !== undefined ? { real } : {}) };
  }
  return undefined;
}

/** The warning for a {@link PathThroughLink}, after the name of the argument (`--paths`, `Argument "paths":`). */
export function pathThroughLinkWarning({ given, link, real }: PathThroughLink): string {
  return (
    `${printablePath(given)} goes through the symbolic link ${printablePath(link)}, which monorag does not follow (each file is indexed once, under its real path), so it updates nothing; ` +
    (real !== undefined ? `give ${printablePath(real)} instead.` : 'give the path without the link.')
  );
}
