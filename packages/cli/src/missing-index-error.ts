import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, errorMessage, loadConfig, MonoragError } from '@monorag/shared';
import { refuseProjectFolderAsDataDir, resolveDataDir, STORE_FILE_NAME, type ProjectContext } from './project-context.js';

/** The nearest ancestor directory of the project with an index file of its own (its `.monorag/` or configured data directory), and that file. */
function findIndexedAncestor(context: ProjectContext): { root: string; storeFile: string } | undefined {
  for (let dir = path.dirname(context.root); ; dir = path.dirname(dir)) {
    try {
      const { dataDir } = loadConfig({ projectRoot: dir, overrides: context.overrides });
      const storeFile = path.join(resolveDataDir(dir, dataDir), STORE_FILE_NAME);
      // An absolute data directory names the same file for every directory: the project's own, missing.
      if (storeFile !== context.storeFile && existsSync(storeFile)) return { root: dir, storeFile };
    } catch (error) {
      context.logger.debug({ dir, err: errorMessage(error) }, 'skipped a parent directory whose configuration cannot be read');
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The `INDEX_NOT_FOUND` error of a project without an index file. When a directory above the project
 * has an index, the project is taken for a subdirectory of that one: the message names it and suggests
 * `--project <it>` (indexing the subdirectory would build a second, nested index). Otherwise it says to
 * run `monorag index <root>`, with the `--data-dir` the command was given, if any. A configured data
 * directory that `monorag index` would refuse (`refuseProjectFolderAsDataDir`) gives that refusal. A data directory that is a file is named as the fault instead
 * (`INVALID_ARGUMENT`, as `monorag index` says it).
 */
export function missingIndexError(context: ProjectContext): MonoragError {
  const looked = `No index for ${context.root} (looked for ${context.storeFile}).`;
  // A data directory `monorag index` would refuse: say so now, rather than advise that run.
  try {
    refuseProjectFolderAsDataDir(context);
  } catch (error) {
    if (error instanceof MonoragError) return error;
    throw error;
  }
  if (existsSync(context.dataDir) && !statSync(context.dataDir).isDirectory()) {
    return new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `${looked} The data directory ${context.dataDir} is a file, not a directory: point --data-dir (or MONORAG_DATA_DIR, or "dataDir" in monorag.json) at the directory that holds the index, or at a new one and run \`monorag index ${context.root}\`.`,
    );
  }
  const ancestor = findIndexedAncestor(context);
  // A --data-dir flag is not remembered anywhere: the command must carry it again, or its index goes to the default place.
  const flag = context.overrides?.dataDir !== undefined ? ` --data-dir ${context.dataDir}` : '';
  if (ancestor === undefined) return new MonoragError(ErrorCode.INDEX_NOT_FOUND, `${looked} Run \`monorag index ${context.root}${flag}\` first.`);
  const sub = path.relative(ancestor.root, context.root).split(path.sep).join('/');
  return new MonoragError(
    ErrorCode.INDEX_NOT_FOUND,
    `${looked} It lies inside ${ancestor.root}, which has an index (${ancestor.storeFile}): ` +
      `give that project instead, \`--project ${ancestor.root}\` (\`--path ${sub}\` keeps a search to this directory).`,
  );
}
