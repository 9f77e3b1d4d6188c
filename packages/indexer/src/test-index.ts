import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createChunker, type Chunker } from '@monorag/chunker';
import { createFakeEmbedder, type Embedder } from '@monorag/embedder-client';
import { openSqliteStore, type SqliteStore } from '@monorag/store';

/** What {@link openTestIndex} gives a test: the options every `indexProject` run of the test shares. */
export interface TestIndex {
  root: string;
  store: SqliteStore;
  chunker: Chunker;
  embedder: Embedder;
  /** Bytes. */
  maxFileBytes: number;
  extraIgnores: string[];
}

/**
 * For tests: a real SQLite index for `root` in `<root>/.monorag/index.sqlite`, the default chunker and
 * the deterministic fake embedder (no model), with the 1 MiB size cap and the data directory ignored.
 */
export async function openTestIndex(root: string): Promise<TestIndex> {
  const chunker = await createChunker();
  const info = await createFakeEmbedder().info();
  const file = path.join(root, '.monorag', 'index.sqlite');
  mkdirSync(path.dirname(file));
  const store = await openSqliteStore({ file, identity: { model: info.model, dim: info.dim, chunkerVersion: chunker.version } });
  return { root, store, chunker, embedder: createFakeEmbedder(), maxFileBytes: 1 << 20, extraIgnores: ['/.monorag/'] };
}
