import path from 'node:path';
import type { Embedder } from '@monorag/embedder-client';
import { createChunker } from '@monorag/chunker';
import { createIndexTokenCounter, type IndexReport } from '@monorag/indexer';
import type { Logger } from '@monorag/shared';
import type { SqliteStore } from '@monorag/store';
import { buildIndex } from './build-index.js';
import { EVAL_DIR, readCorpora, type Corpus } from './corpora.js';
import { createPathlessChunker } from './pathless-chunker.js';
import { createWindowsChunker } from './windows-chunker.js';

/**
 * Chunking variants of the ablation: syntax-tree chunks of the corpus's pinned subset (the product),
 * plain line windows, syntax chunks without the path in the header, and `package`: syntax chunks of
 * the whole published package with only the product's own default rules (tests, type declarations,
 * examples, benchmarks, changelogs and all), as a user's project is indexed.
 */
export type ChunkingVariant = 'syntax' | 'windows' | 'syntax-pathless' | 'package';

/** One built index. */
export interface EvalIndex {
  corpus: Corpus;
  variant: ChunkingVariant;
  store: SqliteStore;
  report: IndexReport;
}

/** Where eval indexes live (git-ignored). */
export const CACHE_DIR = path.join(EVAL_DIR, '.cache');

/** Builds (or updates) the index of every corpus for every requested chunking variant under `indexDir`, one after another. */
export async function indexAll(embedder: Embedder & { readonly embedded?: number }, variants: ChunkingVariant[], indexDir: string, logger?: Logger, onLine?: (line: string) => void): Promise<EvalIndex[]> {
  const info = await embedder.info();
  // The same chunker the CLI indexes with: exact word-piece counts from the server's vocabulary.
  const counter = await createIndexTokenCounter(embedder, info, logger);
  const syntax = await createChunker({ maxTokens: info.maxSeqLength, countTokens: counter.count, counterId: counter.id });
  const windows = createWindowsChunker({ base: syntax, maxTokens: info.maxSeqLength, countTokens: counter.count });
  const chunkers = { syntax, windows, 'syntax-pathless': createPathlessChunker(syntax), package: syntax };
  const out: EvalIndex[] = [];
  for (const variant of variants) {
    for (const corpus of readCorpora()) {
      const calls = embedder.embedded ?? 0;
      const indexed = variant === 'package' ? { ...corpus, ignore: [] } : corpus;
      const { store, report } = await buildIndex({
        corpus: indexed, variant, chunker: chunkers[variant], embedder, cacheDir: indexDir, logger,
      });
      onLine?.(`indexed ${corpus.name}@${corpus.version} (${variant}): ${report.totalChunks} chunks, ${report.chunksWritten} written, ${(embedder.embedded ?? 0) - calls} sent to the model, ${(report.durationMs / 1000).toFixed(1)} s`);
      out.push({ corpus, variant, store, report });
    }
  }
  return out;
}
