import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, MonoragError, errorMessage, settingSource } from '@monorag/shared';
import { readStoredMeta } from '@monorag/store';
import { relativeInside, type ProjectContext } from './project-context.js';

/**
 * Meta keys recording which project a SQLite index belongs to: the project root and the data
 * directory (both real paths) of the last write. A Qdrant collection is named by the project key instead.
 */
export const OWNER_ROOT_KEY = 'project.root';
export const OWNER_DATA_DIR_KEY = 'project.dataDir';

/** The part of a store the owner check needs. */
export interface OwnerMeta {
  getMeta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
}

/** The data directory's real path (its given path while it does not exist). */
function realDataDir(context: ProjectContext): string {
  return existsSync(context.dataDir) ? realpathSync(context.dataDir) : context.dataDir;
}

/**
 * Whether an index recorded as `root` + `dataDir` may serve the context's project: the same root, no
 * record yet (an index from before the record, adopted on its next write), or a project moved or
 * copied together with its data directory (the data directory moved and lies where it lay relative to
 * the project). A data directory that stayed where it was while the root changed is another project's.
 */
function ownedBy(context: ProjectContext, root: string | undefined, dataDir: string | undefined): boolean {
  if (root === undefined || root === context.root) return true;
  const current = realDataDir(context);
  return dataDir !== undefined && dataDir !== current && path.relative(root, dataDir) === path.relative(context.root, current);
}

/** Where the data directory was set, for the refusal (a trial could not tell): ` (set by MONORAG_DATA_DIR)`, `--data-dir`, monorag.json; '' for the default. */
function dataDirSource(context: ProjectContext): string {
  const source = settingSource(['dataDir'], { projectRoot: context.root, overrides: context.overrides });
  if (source.kind === 'flag') return ' (set by --data-dir)';
  if (source.kind === 'env') return ` (set by ${source.variable})`;
  if (source.kind === 'file') return ` (set by "dataDir" in ${source.file})`;
  return '';
}

/** `INVALID_ARGUMENT` naming both roots and what to do. */
function ownerMismatch(context: ProjectContext, owner: string): MonoragError {
  const sub = relativeInside(owner, context.root);
  const parent = sub === undefined
    ? ''
    : ` ${context.root} lies inside ${owner}: to use that index, give ${owner} as ${context.argName} instead (a search's --path ${sub} keeps to this directory).`;
  return new MonoragError(
    ErrorCode.INVALID_ARGUMENT,
    `The index in ${context.dataDir} belongs to the project ${owner}, not to ${context.root}${dataDirSource(context)}: a data directory holds one project's index; ` +
      `searching it from another project would answer from the first one's files, and indexing into it would delete them.${parent} ` +
      `Give each project its own data directory (--data-dir, MONORAG_DATA_DIR or "dataDir" in monorag.json): ` +
      'a relative one such as ".monorag" (the default) resolves inside each project.',
  );
}

/**
 * Checks that the context's SQLite index belongs to the context's project (see {@link OWNER_ROOT_KEY});
 * does nothing for Qdrant.
 * @throws MonoragError `INVALID_ARGUMENT` naming both project roots when it belongs to another project.
 */
export async function checkIndexOwner(context: ProjectContext, store: Pick<OwnerMeta, 'getMeta'>): Promise<void> {
  if (context.config.store.kind !== 'sqlite') return;
  const root = await store.getMeta(OWNER_ROOT_KEY);
  if (!ownedBy(context, root, await store.getMeta(OWNER_DATA_DIR_KEY))) throw ownerMismatch(context, root as string);
}

/**
 * {@link checkIndexOwner} for the index file itself, read without opening it as a store: before its
 * identity is checked, and before `index --rebuild` replaces it. A missing file passes; so does one
 * that cannot be read (opening it as a store then says so, and a rebuild replaces it).
 * @throws MonoragError `INVALID_ARGUMENT` when the file belongs to another project.
 */
export function checkIndexFileOwner(context: ProjectContext): void {
  if (context.config.store.kind !== 'sqlite') return;
  let meta: Map<string, string>;
  try {
    meta = readStoredMeta(context.storeFile, [OWNER_ROOT_KEY, OWNER_DATA_DIR_KEY]);
  } catch (error) {
    context.logger.debug({ file: context.storeFile, err: errorMessage(error) }, 'the index file could not be read to check which project it belongs to');
    return;
  }
  const root = meta.get(OWNER_ROOT_KEY);
  if (!ownedBy(context, root, meta.get(OWNER_DATA_DIR_KEY))) throw ownerMismatch(context, root as string);
}

/**
 * Checks the owner (as {@link checkIndexOwner}) and records the context's project root and data
 * directory in the index when they differ from the record (a first write, an index from before the
 * record, a moved project); for SQLite only.
 * @throws MonoragError `INVALID_ARGUMENT` when the index belongs to another project; the store's errors.
 */
export async function recordIndexOwner(context: ProjectContext, store: OwnerMeta): Promise<void> {
  if (context.config.store.kind !== 'sqlite') return;
  await checkIndexOwner(context, store);
  const dataDir = realDataDir(context);
  if ((await store.getMeta(OWNER_ROOT_KEY)) !== context.root) await store.setMeta(OWNER_ROOT_KEY, context.root);
  if ((await store.getMeta(OWNER_DATA_DIR_KEY)) !== dataDir) await store.setMeta(OWNER_DATA_DIR_KEY, dataDir);
}
