import { createHash } from 'node:crypto';
import path from 'node:path';
import { repositoryIdentity } from '@monorag/indexer';
import { localIndexKey } from '@monorag/indexer/queue';
import type { ProjectContext } from './project-context.js';

/** Longest readable part of a derived project key, in characters (the store slugs keys to 48). */
const MAX_NAME_CHARS = 32;

const keys = new WeakMap<ProjectContext, Promise<string>>();

/**
 * The project key shared by every machine working on one project: names its Qdrant collections and
 * its BullMQ queue (`monorag-index-<key>`). `store.qdrant.project` (env `MONORAG_PROJECT`) when set;
 * else `<name>-<8 hex>`: the name is the repository's (the last segment of remote `origin`'s path)
 * when the project is the repository's top level, else the directory's, at most 32 characters; the
 * hex is the start of the sha256 of the project's `repositoryIdentity` (remote `origin`, else the
 * history's first commits, else the directory's real path; plus the directory's path inside the
 * repository). So two checkouts of one repository share the key (on two machines, under two
 * directory names), and two projects that merely share a directory name do not (they shared one
 * queue and one Qdrant collection when the key was the directory's name alone). With a SQLite store
 * (`store.kind` sqlite) the index is one file of this checkout, so the data directory is hashed in too:
 * two checkouts of one remote that share a Redis keep two queues, each for the workers writing its own
 * index (one queue let one checkout's workers take the other's jobs and index their own copy of the
 * files); a configured key too (`<key>-<8 hex>`, see `localIndexKey`). Memoised per context.
 * @returns never rejects (git trouble falls back to the path identity).
 */
export function projectKey(context: ProjectContext): Promise<string> {
  let key = keys.get(context);
  if (key === undefined) {
    key = deriveProjectKey(context.root, context.config.store.qdrant.project, context.config.store.kind === 'sqlite' ? context.dataDir : undefined);
    keys.set(context, key);
  }
  return key;
}

/**
 * {@link projectKey} for the project at `root` (absolute real path) with `configured` as
 * `store.qdrant.project` (undefined when not set) and `localIndex` the absolute data directory of an
 * index only this checkout writes (a SQLite store), hashed in after the repository identity and a NUL,
 * or for a configured key appended as {@link localIndexKey} gives it.
 * @returns never rejects.
 */
export async function deriveProjectKey(root: string, configured: string | undefined, localIndex?: string): Promise<string> {
  // A key set by hand names Qdrant collections several checkouts share; a SQLite index is one checkout's all the same.
  if (configured) return localIndex === undefined ? configured : localIndexKey(configured, localIndex);
  const identity = await repositoryIdentity(root);
  const name = (identity.repositoryName ?? path.basename(root)).slice(0, MAX_NAME_CHARS);
  const hashed = localIndex === undefined ? identity.id : `${identity.id}\0${localIndex}`;
  return `${name}-${createHash('sha256').update(hashed).digest('hex').slice(0, 8)}`;
}
