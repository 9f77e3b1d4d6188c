import type Database from 'better-sqlite3';
import { ErrorCode, MonoragError, type IndexIdentity, type Logger } from '@monorag/shared';

/** Meta keys holding the identity; {@link IDENTITY_KEY_PREFIX} is reserved for them. */
const KEYS = {
  model: 'identity.model',
  dim: 'identity.dim',
  chunkerVersion: 'identity.chunkerVersion',
} as const;

/** Meta keys starting with this belong to the store; `setMeta` refuses them. */
export const IDENTITY_KEY_PREFIX = 'identity.';

/** `model "m" (dim 384, chunker v1)`, for messages. */
export function describeIdentity(identity: IndexIdentity): string {
  return `model "${identity.model}" (dim ${identity.dim}, chunker ${identity.chunkerVersion})`;
}

/** The identity stored in the meta table, or undefined when there is none (or no meta table yet). */
export function readIdentity(db: Database.Database): IndexIdentity | undefined {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return undefined;
  const rows = db.prepare('SELECT key, value FROM meta WHERE key IN (?, ?, ?)').all(KEYS.model, KEYS.dim, KEYS.chunkerVersion) as {
    key: string;
    value: string;
  }[];
  const values = new Map(rows.map((row) => [row.key, row.value]));
  const model = values.get(KEYS.model);
  const dim = values.get(KEYS.dim);
  const chunkerVersion = values.get(KEYS.chunkerVersion);
  if (model === undefined || dim === undefined || chunkerVersion === undefined) return undefined;
  return { model, dim: Number(dim), chunkerVersion };
}

/**
 * The identity the store will use. With `requested`: records it on a store that has none (creating
 * the vec0 table for its dimension in the same transaction), or checks it against the stored one.
 * Without: adopts the stored identity.
 * @throws MonoragError `INDEX_IDENTITY_MISMATCH` naming both identities and how to re-index;
 *   `INDEX_NOT_FOUND` when no identity is requested and none is stored; `INVALID_ARGUMENT` for a
 *   dimension that is not a positive integer.
 */
export function resolveIdentity(
  db: Database.Database,
  file: string,
  requested: IndexIdentity | undefined,
  logger?: Logger,
): IndexIdentity {
  if (requested === undefined) {
    const stored = readIdentity(db);
    if (stored === undefined) throw indexNotFound(file);
    return stored;
  }
  if (!Number.isInteger(requested.dim) || requested.dim <= 0) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Embedding dimension must be a positive integer, got ${requested.dim}.`);
  }
  return db
    .transaction(() => {
      const stored = readIdentity(db);
      if (stored !== undefined) {
        if (!sameIdentity(stored, requested)) throw identityMismatch(file, stored, requested);
        return stored;
      }
      const put = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
      put.run(KEYS.model, requested.model);
      put.run(KEYS.dim, String(requested.dim));
      put.run(KEYS.chunkerVersion, requested.chunkerVersion);
      db.exec(
        `CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${requested.dim}] distance_metric=cosine)`,
      );
      logger?.info({ file, identity: requested }, 'store identity recorded');
      return { ...requested };
    })
    .immediate();
}

function sameIdentity(a: IndexIdentity, b: IndexIdentity): boolean {
  return a.model === b.model && a.dim === b.dim && a.chunkerVersion === b.chunkerVersion;
}

/** The INDEX_NOT_FOUND error for `file`. */
export function indexNotFound(file: string): MonoragError {
  return new MonoragError(
    ErrorCode.INDEX_NOT_FOUND,
    `No index found at ${file}. Run \`monorag index <path>\` first.`,
  );
}

function identityMismatch(file: string, stored: IndexIdentity, requested: IndexIdentity): MonoragError {
  return new MonoragError(
    ErrorCode.INDEX_IDENTITY_MISMATCH,
    `The index at ${file} was built with ${describeIdentity(stored)}, but this run uses ${describeIdentity(requested)}. Vectors of different models or chunkers cannot be mixed: re-index with \`monorag index --rebuild\` (or delete the data directory).`,
  );
}
