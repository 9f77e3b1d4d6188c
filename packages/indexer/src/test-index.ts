import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createChunker, type Chunker } from '@monorag/chunker';
import { createFakeEmbedder, type Embedder } from '@monorag/embedder-client';
import { openSqliteStore, type SqliteStore } from '@monorag/store';
import { createIgnoreFilter } from './ignore-filter.js';
import { readSkippedFiles } from './skipped-files.js';
import { countWorkTreeChanges } from './work-tree-changes.js';

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

/**
 * For tests: the work-tree changes of a test index as `status` and the search footers count them
 * without a watcher (the CLI's `readWorkTreeProbe`): files changed since the last whole-tree run,
 * since the index read them, or since a run left them out on purpose.
 */
export async function pendingChanges({ root, store, maxFileBytes }: TestIndex): Promise<number> {
  const at = Number((await store.getMeta('indexedAt')) ?? NaN);
  const skipped = await readSkippedFiles(store);
  return countWorkTreeChanges({
    root,
    maxFileBytes,
    sinceMs: Number.isFinite(at) ? at : null,
    filter: createIgnoreFilter({ root, extraIgnores: ['/.monorag/'] }),
    isIndexed: async (rel) => (await store.getFile(rel)) !== undefined,
    indexedAtOf: async (rel) => (await store.getFile(rel))?.indexedAt,
    skippedAtOf: async (rel) => skipped.get(rel),
    indexedPaths: async () => (await store.listFiles()).map((file) => file.path),
  });
}

/** For tests: resolves once Date.now() is past `ms` (ms since the epoch), so the next file time or run start is later. */
export async function after(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setTimeout(resolve, 2));
}
