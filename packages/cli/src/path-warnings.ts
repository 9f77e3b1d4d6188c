import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathThroughLink, pathThroughLinkWarning, unknownPaths } from '@monorag/indexer';
import { dataDirIgnorePattern, type ProjectContext } from './project-context.js';
import { createReadablePredicate } from './readable-predicate.js';

/**
 * Warns on stderr about `index --paths` entries a run would pass over without a word: one that names
 * nothing, one through a directory link, one the ignore rules leave out. The same for an in-process run
 * and for the team queue's plan.
 * @param paths repo-relative POSIX paths, as `resolvePathPrefix` gives them
 * @param indexed the index's manifest (a deleted file still in the index is a valid path: the run removes it)
 */
export function warnPathArguments(context: ProjectContext, paths: readonly string[], indexed: readonly { path: string }[]): void {
  warnUnknownPaths(context.root, paths, indexed);
  warnIgnoredPaths(context.root, paths, createReadablePredicate(context), dataDirIgnorePattern(context));
}

/**
 * Warns on stderr about each `--paths` entry that names nothing: no file or directory in the tree and
 * nothing in the index under it (a deleted file still in the index is a valid path: the run removes it),
 * or a path through a directory link, which no run follows (`pathThroughLink`).
 */
function warnUnknownPaths(root: string, paths: readonly string[], indexed: readonly { path: string }[]): void {
  for (const raw of unknownPaths(root, paths, indexed)) {
    process.stderr.write(`monorag: warning: --paths ${raw} names no file or directory of ${root} and nothing in its index; check the spelling (paths are relative to the project root).\n`);
  }
  for (const rel of paths) {
    const linked = pathThroughLink(root, rel);
    if (linked) process.stderr.write(`monorag: warning: --paths ${pathThroughLinkWarning(linked)}\n`);
  }
}

/**
 * Names each `--paths` entry that exists but that the ignore rules leave out (`build/server.js` under a
 * `.gitignore`'d `build/`, `.git/config`), which a run otherwise passes over without a word.
 * @param paths repo-relative POSIX paths, as `resolvePathPrefix` gives them
 */
function warnIgnoredPaths(root: string, paths: readonly string[], isReadable: (relPath: string) => boolean, dataDirPattern: string | undefined): void {
  for (const rel of paths) {
    const bare = rel.replace(/\/$/, '');
    if (!existsSync(path.join(root, bare)) || isReadable(bare)) continue;
    const keep = bare.split('/').includes('.git')
      ? "git's own folder is never indexed"
      : dataDirPattern !== undefined && `/${bare}/`.startsWith(dataDirPattern)
        ? "it is monorag's own data directory, never indexed"
        : `a \`!${rel}\` line in .monoragignore keeps it`;
    process.stderr.write(
      `monorag: warning: --paths ${rel} is left out by the ignore rules (.gitignore, .git/info/exclude, .monoragignore, or the defaults for dependencies, builds, secrets and .git), so it is not indexed; ${keep}.\n`,
    );
  }
}
