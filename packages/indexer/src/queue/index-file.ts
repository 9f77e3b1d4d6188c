import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, MonoragError, holdsPrivateKey, type FileRecord } from '@monorag/shared';
import type { Chunker } from '@monorag/chunker';
import type { Embedder } from '@monorag/embedder-client';
import type { ChunkStore } from '@monorag/store';
import { changedAt } from '../changed-at.js';
import { embedChunks } from '../embed-chunks.js';
import { isGeneratedFile } from '../detect-generated.js';
import { readProjectFile, textOf, type ReadFileResult } from '../read-project-file.js';
import { tooLargeDetail } from '../too-large-detail.js';
import { REQUIRED_SCANNER_META, SECRET_SCANNER_META, redactFileText, sameSecrets, secretScannerOf } from '../redact-file-text.js';
import type { IgnoreFilter } from '../ignore-filter.js';
import type { FileJobProgress, FileJobResult } from './file-job.js';

/** Options of {@link indexFile}. */
export interface IndexFileOptions {
  /** Absolute path of this machine's checkout of the project. */
  root: string;
  /** Repo-relative POSIX path of the file. */
  path: string;
  store: ChunkStore;
  chunker: Chunker;
  embedder: Embedder;
  /**
   * Files larger than this many bytes are removed from the index, as the walk skips them; a Jupyter notebook
   * only when its cell sources are, or its file is over the most read to measure them (see {@link tooLargeDetail}).
   */
  maxFileBytes: number;
  /**
   * Replace secrets with `[REDACTED:<rule>]` before chunking (config `index.redactSecrets`); default true.
   * While the index's {@link SECRET_SCANNER_META} is not the scanner this gives, an unchanged file is scanned again.
   */
  redactSecrets?: boolean;
  /**
   * The project's ignore rules as they are now (`createIgnoreFilter`, with the data directory's rule): a
   * file they leave out is deleted from the index, as a run's walk drops it. Without it every existing
   * file is indexed, so a file that became ignored (a new `.gitignore` line) would stay indexed.
   */
  filter?: Pick<IgnoreFilter, 'isPathIgnored'>;
  onProgress?: (progress: FileJobProgress) => void | Promise<void>;
}

/**
 * Brings one file's index entry up to date, the unit of work of a queue worker: a missing, binary,
 * generated or oversized file, a symbolic link, one holding a private key, or one the project's ignore
 * rules leave out (`filter`), is deleted from the index; a file whose content hash equals the
 * manifest's is left alone (only its `indexedAt` moves to this read when the file was saved since the
 * entry's read), unless the index was written with another secret scanner (see below);
 * otherwise it is analysed, embedded through the cache and written with
 * its manifest entry in one store write (as {@link indexProject} does for each file, so both paths
 * give the same index). Idempotent: running it twice, or after a crash, gives the same state.
 *
 * Re-scan rule: when the content hash is unchanged but the store's {@link SECRET_SCANNER_META} is not
 * this worker's scanner ({@link secretScannerOf} `redactSecrets`; absent counts as different), the file is
 * redacted again and compared with the manifest's `secrets`: the same counts give `unchanged` with no
 * store write, other counts a re-chunked, re-embedded entry (`indexed`). The rule looks at the store, not
 * at the job, so a job that was waiting, or failed and is retried, since before a re-scan was planned
 * ({@link planFileJobs}) is re-scanned as well. The meta is written once the queue has drained with no
 * failed job (the CLI's `recordDrainedQueue`), after which unchanged files are skipped without a scan.
 * Before anything else, a worker whose scanner is not the one the last whole-tree enqueue requires
 * ({@link REQUIRED_SCANNER_META}) refuses the job: CONFIG_INVALID naming both settings (the queue
 * fails such a job at once, without retries).
 * @throws MonoragError `CONFIG_INVALID` for a worker whose `redactSecrets` differs from the enqueuer's,
 *   `FILE_UNREADABLE` for a file that exists but cannot be read (the job is retried),
 *   or whose secret scan fails, `EMBEDDER_UNAVAILABLE`, `STORE_FAILED`.
 */
export async function indexFile({ root, path: rel, store, chunker, embedder, maxFileBytes, redactSecrets = true, filter, onProgress }: IndexFileOptions): Promise<FileJobResult> {
  const scanner = secretScannerOf(redactSecrets);
  const required = await store.getMeta(REQUIRED_SCANNER_META);
  if (required !== undefined && required !== scanner) {
    throw new MonoragError(
      ErrorCode.CONFIG_INVALID,
      `This worker redacts secrets with "${scanner}" (index.redactSecrets ${redactSecrets}), but the last whole-tree ` +
        `\`monorag jobs enqueue\` requires "${required}" ("off" is index.redactSecrets false); ${rel} was not indexed. ` +
        'Give the workers the same index.redactSecrets as the enqueuer, restart them, then run `monorag jobs enqueue` again.',
    );
  }
  const absPath = path.join(root, ...rel.split('/'));
  const gone = async (): Promise<FileJobResult> => {
    await store.deleteFile(rel);
    return { path: rel, outcome: 'deleted', chunks: 0 };
  };
  // lstat: a symbolic link is no file of the index (the walk skips it, its target is indexed under its own path).
  const info = await lstat(absPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (info === undefined || !info.isFile() || filter?.isPathIgnored(rel, false)) return gone();
  // The entry's `indexedAt`: taken before the read (the notebook measure's or the one below), so a save
  // during or after it is later, and pending.
  const readAt = Date.now();
  // A notebook over the limit is read here to measure its cell sources; that read is the one indexed.
  let read: ReadFileResult | undefined;
  const readText = async (): Promise<string | undefined> => textOf((read = await readProjectFile(absPath)));
  if ((await tooLargeDetail({ path: rel, size: info.size, maxFileBytes, readText })) !== null) return gone();
  read ??= await readProjectFile(absPath);
  if (read.kind === 'binary' || read.kind === 'gone') return gone();
  if (read.kind === 'unreadable') {
    throw new MonoragError(ErrorCode.FILE_UNREADABLE, `Cannot read ${rel} under ${root}: ${read.detail}.`);
  }
  if (isGeneratedFile(rel, read.text) || holdsPrivateKey(read.text)) return gone();
  const previous = await store.getFile(rel);
  const same = previous !== undefined && previous.contentHash === read.contentHash;
  /** The file holds the indexed text: a save since the entry's read only moves its `indexedAt` (as in indexProject). */
  const unchanged = async (record: FileRecord): Promise<FileJobResult> => {
    if (changedAt(info) > record.indexedAt) await store.setFileIndexedAt(rel, record.contentHash, readAt);
    return { path: rel, outcome: 'unchanged', chunks: record.chunkCount };
  };
  if (same && (await store.getMeta(SECRET_SCANNER_META)) === scanner) return unchanged(previous);
  const redacted = await redactFileText(rel, read.text, redactSecrets);
  if (same && sameSecrets(previous.secrets, redacted.secrets)) return unchanged(previous);
  await onProgress?.({ path: rel, phase: 'read', chunks: 0 });
  const { chunks, symbols, language, fallback } = chunker.analyse(rel, redacted.text);
  await onProgress?.({ path: rel, phase: 'chunked', chunks: chunks.length });
  const { vectors } = await embedChunks(chunks, store, embedder);
  await onProgress?.({ path: rel, phase: 'embedded', chunks: chunks.length });
  const record: FileRecord = { path: rel, contentHash: read.contentHash, size: info.size, language, chunkCount: chunks.length, indexedAt: readAt };
  if (fallback !== null) record.fallback = fallback;
  if (redacted.secrets) record.secrets = redacted.secrets;
  await store.writeFile(record, chunks, vectors, symbols);
  await onProgress?.({ path: rel, phase: 'written', chunks: chunks.length });
  return { path: rel, outcome: 'indexed', chunks: chunks.length };
}
