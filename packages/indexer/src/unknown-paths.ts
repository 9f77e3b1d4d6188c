import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The entries of `paths` (repo-relative, as given to an incremental run: `index --paths`, MCP
 * `sync_index`) that name nothing: no file or directory under `root` and no indexed file at or below
 * them. A deleted file still in the index is not unknown: the run removes it. Entries are returned as
 * given, so the caller can quote them in a warning. Reads the file system only (no errors thrown).
 * @param root absolute path of the project root
 * @param indexed the files in the index (their repo-relative `path`)
 */
export function unknownPaths(root: string, paths: readonly string[], indexed: readonly { path: string }[]): string[] {
  return paths.filter((raw) => {
    const rel = raw.replace(/^\.\//, '').replace(/\/+$/, '');
    return !existsSync(path.join(root, rel)) && !indexed.some((f) => f.path === rel || f.path.startsWith(`${rel}/`));
  });
}
