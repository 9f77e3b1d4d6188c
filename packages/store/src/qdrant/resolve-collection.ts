import type { QdrantClient } from '@qdrant/js-client-rest';
import { ErrorCode, MonoragError, type IndexIdentity, type Logger } from '@monorag/shared';
import { describeIdentity } from '../sqlite/identity.js';
import { DENSE_VECTOR, metaPoint, metaPointId, SPARSE_VECTOR } from './chunk-payload.js';
import { aliasName, collectionNames } from './collection-names.js';
import { DOC_FIELD, PATH_PREFIXES_FIELD } from './qdrant-filter.js';

/** Meta key of the identity record (reserved: `setMeta` refuses the `identity.` prefix). */
export const IDENTITY_META_KEY = 'identity.record';

/** Keyword payload indexes of an index collection: what every filter and the manifest look up. */
export const KEYWORD_INDEXES = [DOC_FIELD, 'path', PATH_PREFIXES_FIELD, 'language', 'kind', 'symbols', 'name', 'role'] as const;

/** Options of {@link resolveQdrantCollection}. */
export interface ResolveCollectionOptions {
  client: QdrantClient;
  prefix: string;
  project: string;
  requested: IndexIdentity | undefined;
  logger?: Logger;
}

/**
 * The collection and identity of `project`'s index: the collection its alias names, checked against
 * `requested`; or, when the project has no index and an identity is requested, a new collection
 * (named after the identity, with vectors, payload indexes and the identity record) that the alias
 * then points to. Creating the alias last makes a half-created collection invisible; concurrent
 * openers converge on the same names.
 * @throws MonoragError `INDEX_NOT_FOUND`, `INDEX_IDENTITY_MISMATCH` (says how to re-index).
 */
export async function resolveQdrantCollection(options: ResolveCollectionOptions): Promise<{ collection: string; identity: IndexIdentity }> {
  const { client, prefix, project, requested, logger } = options;
  const alias = aliasName(prefix, project);
  const current = await currentCollection(client, alias);
  if (current !== undefined) return { collection: current, identity: await checkedIdentity(client, project, current, requested) };
  if (requested === undefined) {
    throw new MonoragError(ErrorCode.INDEX_NOT_FOUND, `No index of project "${project}" in Qdrant (alias ${alias}). Run \`monorag index <path>\` first.`);
  }
  const names = collectionNames(prefix, project, requested);
  await ensureCollection(client, names.collection, {
    vectors: { [DENSE_VECTOR]: { size: requested.dim, distance: 'Cosine' } },
    sparse_vectors: { [SPARSE_VECTOR]: { modifier: 'idf' } },
  });
  for (const field of KEYWORD_INDEXES) {
    await client.createPayloadIndex(names.collection, { field_name: field, field_schema: 'keyword', wait: true });
  }
  await client.upsert(names.collection, { wait: true, points: [metaPoint(IDENTITY_META_KEY, { ...requested, project })] });
  // The cache keeps vectors as given: Dot does not normalise them as Cosine would.
  await ensureCollection(client, names.cache, { vectors: { [DENSE_VECTOR]: { size: requested.dim, distance: 'Dot' } } });
  // pruneEmbeddingCache deletes by a range over the last-use time.
  await client.createPayloadIndex(names.cache, { field_name: 'usedAt', field_schema: 'integer', wait: true });
  try {
    await client.updateCollectionAliases({ actions: [{ create_alias: { collection_name: names.collection, alias_name: alias } }] });
  } catch (error) {
    // Another process may have created the alias first; what it points to is checked below.
    logger?.debug({ alias, error: (error as Error).message }, 'alias creation failed; re-reading aliases');
  }
  const now = await currentCollection(client, alias);
  if (now === undefined) throw new MonoragError(ErrorCode.STORE_FAILED, `Qdrant did not create the alias ${alias} for ${names.collection}.`);
  logger?.info({ alias, collection: now, identity: requested }, 'qdrant index created');
  return { collection: now, identity: await checkedIdentity(client, project, now, requested) };
}

async function currentCollection(client: QdrantClient, alias: string): Promise<string | undefined> {
  const { aliases } = await client.getAliases();
  return aliases.find((entry) => entry.alias_name === alias)?.collection_name;
}

async function ensureCollection(client: QdrantClient, name: string, params: Parameters<QdrantClient['createCollection']>[1]): Promise<void> {
  if ((await client.collectionExists(name)).exists) return;
  try {
    await client.createCollection(name, params);
  } catch (error) {
    // A concurrent opener may have created it between the check and the create; anything else is real.
    if (!(await client.collectionExists(name)).exists) throw error;
  }
}

async function checkedIdentity(
  client: QdrantClient,
  project: string,
  collection: string,
  requested: IndexIdentity | undefined,
): Promise<IndexIdentity> {
  const [point] = await client.retrieve(collection, { ids: [metaPointId(IDENTITY_META_KEY)], with_payload: true, with_vector: false });
  const record = point?.payload?.value as (IndexIdentity & { project?: string }) | undefined;
  if (record === undefined || typeof record.model !== 'string') {
    throw new MonoragError(
      ErrorCode.STORE_FAILED,
      `The Qdrant collection ${collection} of project "${project}" has no identity record; delete it (\`monorag index --rebuild\`) and index again.`,
    );
  }
  const stored: IndexIdentity = { model: record.model, dim: record.dim, chunkerVersion: record.chunkerVersion };
  const info = await client.getCollection(collection);
  const vectors = info.config.params.vectors as Record<string, { size?: number }> | undefined;
  const size = vectors?.[DENSE_VECTOR]?.size;
  const mismatch = (why: string): MonoragError =>
    new MonoragError(
      ErrorCode.INDEX_IDENTITY_MISMATCH,
      `The Qdrant index of project "${project}" (collection ${collection}) ${why}. Vectors of different models or chunkers cannot be mixed: re-index with \`monorag index --rebuild\` (it drops the collection and builds a new one).`,
    );
  if (size !== stored.dim) throw mismatch(`has ${size ?? 'no'}-dimensional "${DENSE_VECTOR}" vectors but its identity says ${describeIdentity(stored)}`);
  if (requested !== undefined && (stored.model !== requested.model || stored.dim !== requested.dim || stored.chunkerVersion !== requested.chunkerVersion)) {
    throw mismatch(`was built with ${describeIdentity(stored)}, but this run uses ${describeIdentity(requested)}`);
  }
  return stored;
}
