import { createHash } from 'node:crypto';
import type { IndexIdentity } from '@monorag/shared';

/** Names of the Qdrant collections and alias of one project's index. */
export interface CollectionNames {
  /** Alias naming the project's current index collection: `<prefix>_<project>`. */
  alias: string;
  /** The collection of one index identity: `<alias>_<12 hex of sha256(model, dim, chunker)>`. */
  collection: string;
  /** The embedding cache of one model, shared by every project: `<prefix>_embcache_<12 hex of sha256(model, dim)>`. */
  cache: string;
}

const short = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** `project` reduced to `[a-z0-9_-]` (other characters become `-`), at most 48 characters. */
export function projectSlug(project: string): string {
  const slug = project.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48);
  return slug === '' ? `p${short(project)}` : slug;
}

/**
 * The alias and collection names of `project` for `identity` (one collection per index identity, so
 * vectors of two models never meet) and of the model's embedding cache.
 */
export function collectionNames(prefix: string, project: string, identity: IndexIdentity): CollectionNames {
  const alias = aliasName(prefix, project);
  return {
    alias,
    collection: `${alias}_${short(`${identity.model}\n${identity.dim}\n${identity.chunkerVersion}`)}`,
    cache: `${prefix}_embcache_${short(`${identity.model}\n${identity.dim}`)}`,
  };
}

/** The alias of `project`'s current index collection. */
export function aliasName(prefix: string, project: string): string {
  return `${prefix}_${projectSlug(project)}`;
}
