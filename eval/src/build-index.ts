import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Chunker } from '@monorag/chunker';
import type { Embedder } from '@monorag/embedder-client';
import { indexProject, type IndexReport } from '@monorag/indexer';
import { ErrorCode, isMonoragError, type IndexIdentity, type Logger } from '@monorag/shared';
import { deleteStoreFiles, openSqliteStore, type SqliteStore } from '@monorag/store';
import type { Corpus } from './corpora.js';

/** Options of {@link buildIndex}. */
export interface BuildIndexOptions {
  corpus: Corpus;
  /** Chunking variant name; part of the index directory name. */
  variant: string;
  chunker: Chunker;
  embedder: Embedder;
  /** Directory holding one `<corpus>-<version>-<variant>/index.sqlite` per index. */
  cacheDir: string;
  logger?: Logger;
}

/**
 * Brings the eval index of one corpus and chunking variant up to date through the public indexer
 * (unchanged files cost nothing) and returns it open, with the indexing report. An index of another
 * identity (chunker version, model) is deleted and rebuilt.
 */
export async function buildIndex({ corpus, variant, chunker, embedder, cacheDir, logger }: BuildIndexOptions): Promise<{ store: SqliteStore; report: IndexReport }> {
  const dir = path.join(cacheDir, `${corpus.name}-${corpus.version}-${variant}`);
  mkdirSync(dir, { recursive: true });
  const info = await embedder.info();
  const file = path.join(dir, 'index.sqlite');
  const identity: IndexIdentity = { model: info.model, dim: info.dim, chunkerVersion: chunker.version };
  let store: SqliteStore;
  try {
    store = await openSqliteStore({ file, identity, logger });
  } catch (error) {
    // The eval index is a cache: a new chunker version or model means a fresh index (vectors of
    // unchanged chunk texts come back from the eval's embedding cache).
    if (!isMonoragError(error, ErrorCode.INDEX_IDENTITY_MISMATCH)) throw error;
    deleteStoreFiles(file);
    store = await openSqliteStore({ file, identity, logger });
  }
  const report = await indexProject({
    root: corpus.root,
    store,
    chunker,
    embedder,
    maxFileBytes: 1024 * 1024,
    extraIgnores: ['/.monorag/', ...corpus.ignore],
    logger,
  });
  return { store, report };
}
