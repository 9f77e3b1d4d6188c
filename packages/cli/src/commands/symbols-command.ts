import { ErrorCode, MonoragError, printablePath, testTitleName, type SymbolHit, type SymbolRole } from '@monorag/shared';
import { resolvePathPrefix } from '@monorag/retriever';
import { openSqliteStore } from '@monorag/store';
import { existsSync } from 'node:fs';
import { checkIndexOwner } from '../index-owner.js';
import { missingIndexError } from '../missing-index-error.js';
import { createProjectContext } from '../project-context.js';

/** Options of `monorag symbols` and `monorag refs`. */
export interface SymbolsCommandOptions {
  project?: string;
  dataDir?: string;
  limit?: number;
  path?: string;
  json?: boolean;
}

/** Default and largest `--limit` of `symbols` / `refs`. */
export const DEFAULT_SYMBOL_LIMIT = 100;
export const MAX_SYMBOL_LIMIT = 10_000;

/**
 * `monorag symbols <name>` (role `definition`) and `monorag refs <name>` (role `reference`): rows of the
 * symbol table named exactly `name` (or, when none is, as the table stores a test title: `testTitleName`), by path and line. With `--json` prints only
 * `{"results":[{path,startLine,endLine,kind,name,enclosing}]}` on stdout. Needs no embedding model.
 * `--path` is a repo-relative prefix or an absolute path inside the project.
 * @throws MonoragError `INDEX_NOT_FOUND` when the project has no index, `INVALID_ARGUMENT` for a bad limit or name
 *   or an index that belongs to another project,
 *   `PATH_OUTSIDE_PROJECT` for a `--path` outside the project.
 */
export async function runSymbolsCommand(role: SymbolRole, name: string, options: SymbolsCommandOptions): Promise<SymbolHit[]> {
  if (name.trim() === '') throw new MonoragError(ErrorCode.INVALID_ARGUMENT, 'Argument <name>: give the identifier to look up, e.g. parseHeaders.');
  const limit = options.limit ?? DEFAULT_SYMBOL_LIMIT;
  if (limit > MAX_SYMBOL_LIMIT) throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `--limit: at most ${MAX_SYMBOL_LIMIT}, got ${limit}.`);
  const context = createProjectContext({ project: options.project, argName: '--project', overrides: { dataDir: options.dataDir } });
  const pathPrefix = options.path === undefined ? undefined : resolvePathPrefix(context.root, options.path, '--path');
  if (!existsSync(context.storeFile)) throw missingIndexError(context);
  const store = await openSqliteStore({ file: context.storeFile, logger: context.logger });
  try {
    await checkIndexOwner(context, store);
    let hits = await store.findSymbols({ name: name.trim(), role, limit, pathPrefix });
    // A test's title is stored as testTitleName keeps it: one space between words, cut to 120 characters with an ellipsis.
    const title = testTitleName(name);
    if (hits.length === 0 && title !== name.trim()) hits = await store.findSymbols({ name: title, role, limit, pathPrefix });
    if (options.json) {
      const results = hits.map(({ path, startLine, endLine, kind, name: hitName, enclosing }) => ({ path, startLine, endLine, kind, name: hitName, enclosing }));
      process.stdout.write(`${JSON.stringify({ results })}\n`);
    } else {
      const lines = hits.map((hit) => `${printablePath(hit.path)}:${hit.startLine}-${hit.endLine}  ${hit.kind}  ${hit.name}${hit.enclosing ? `  in ${hit.enclosing}` : ''}`);
      if (lines.length === 0) lines.push(`No ${role === 'definition' ? 'definitions' : 'references'} of ${name}.`);
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    return hits;
  } finally {
    await store.close();
  }
}
