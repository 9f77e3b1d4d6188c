import { createIgnoreFilter } from '@monorag/indexer';
import { dataDirIgnorePattern, type ProjectContext } from './project-context.js';

/**
 * What `get_file_context` may read: the files the index's own rules admit (monorag's defaults for
 * secrets, `.git` and dependencies, `.gitignore` / `.monoragignore` at every level, the data
 * directory), so the MCP server never serves a file that indexing leaves out on purpose.
 */
export function createReadablePredicate(context: ProjectContext): (relPath: string) => boolean {
  const pattern = dataDirIgnorePattern(context);
  const filter = createIgnoreFilter({ root: context.root, extraIgnores: pattern ? [pattern] : [] });
  return (relPath) => relPath !== '' && !filter.isPathIgnored(relPath, false);
}
