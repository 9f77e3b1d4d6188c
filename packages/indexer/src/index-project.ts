import { lstat } from 'node:fs/promises';
import { holdsPrivateKey, isMonoragError, type Chunk, type CodeSymbol, type FileRecord, type Logger } from '@monorag/shared';
import { MAX_AVERAGE_LINE_CHARS, type Chunker } from '@monorag/chunker';
import type { Embedder } from '@monorag/embedder-client';
import type { ChunkStore } from '@monorag/store';
import { changedAt } from './changed-at.js';
import { embedChunks } from './embed-chunks.js';
import { throwIfInterrupted } from './run-interrupted.js';
import { currentCommit } from './current-commit.js';
import { headDifferences, recordHeadDifferences } from './head-differences.js';
import { isHandledSkip, recordSkippedFiles } from './skipped-files.js';
import { isGeneratedFile } from './detect-generated.js';
import { matchMovedChunks } from './match-moved-chunks.js';
import { readProjectFile } from './read-project-file.js';
import { belowUnreadableDir, walkProject, type SkippedFile, type WalkedFile } from './walk-project.js';
import type { IgnoreFilter } from './ignore-filter.js';
import { inScope, runScope } from './path-scope.js';
import { scopeToHead } from './scope-to-head.js';
import { REQUIRED_SCANNER_META, SECRET_SCANNER_META, needsSecretRescan, redactFileText, sameSecrets, secretScannerOf } from './redact-file-text.js';
import { summariseRedactedFiles, type RedactedFile, type SecretsSummary } from './secrets-report.js';

/** A progress event of {@link indexProject}; the CLI renders these as a progress bar or lines. */
export interface IndexProgress {
  phase: 'scan' | 'index' | 'done';
  /** Files found by the walk. */
  filesTotal: number;
  /** Files read and compared with the manifest so far. */
  filesScanned: number;
  /** Files that need (re)indexing, as far as known. */
  filesToIndex: number;
  /** Files (re)indexed so far. */
  filesIndexed: number;
  /** Chunks written so far. */
  chunksWritten: number;
  /** Chunks sent to the embedder so far. */
  chunksEmbedded: number;
}

/** Options of {@link indexProject}. */
export interface IndexProjectOptions {
  /** Absolute real path of the project root. */
  root: string;
  store: ChunkStore;
  chunker: Chunker;
  embedder: Embedder;
  /** Files larger than this many bytes are skipped; a Jupyter notebook when its cell sources are (see `walkProject`). */
  maxFileBytes: number;
  /** Extra gitignore-syntax rules (e.g. the data directory). */
  extraIgnores?: readonly string[];
  /**
   * Incremental mode: only these repo-relative paths (new, changed or deleted files, or directories,
   * including deleted ones). A path naming a `.gitignore`, `.monoragignore` or `.git/info/exclude`
   * turns the run into a full one, since the set of indexed files may change anywhere. When HEAD is not
   * the commit the index records (`indexedCommit`), the paths that differ between the two are added
   * (or, when git cannot diff them, the run covers the whole tree: see {@link scopeToHead}), so that the
   * commit the run records is one whose changes it read. Default: the whole tree.
   */
  paths?: readonly string[];
  /** The project's ignore rules, shared with a watcher; default a new filter. */
  filter?: IgnoreFilter;
  /** Chunks gathered before one embedding round trip; default 128. */
  embedBatchChunks?: number;
  /**
   * After a full run, embedding-cache entries unused for longer than this many ms are pruned
   * (`ChunkStore.pruneEmbeddingCache`); undefined leaves the cache alone. Path-limited runs never prune.
   */
  cacheRetentionMs?: number;
  /**
   * Replace secrets in each file's text with `[REDACTED:<rule>]` before chunking (config
   * `index.redactSecrets`); default true. When this or the scanner changed since the index was written,
   * files are scanned again and those whose redaction differs are re-chunked even if their content did not change.
   */
  redactSecrets?: boolean;
  logger?: Logger;
  onProgress?: (progress: IndexProgress) => void;
  /**
   * Aborting it stops the run before its next file or embedding slice (`RUN_INTERRUPTED`): a watcher
   * lets newer changes go first instead of waiting behind a long run. What was written stays; the
   * run's freshness (`indexedAt`, `indexedCommit`) is not recorded, so the index reads as stale until
   * a run completes.
   */
  signal?: AbortSignal;
}

/** What one {@link indexProject} run did. */
export interface IndexReport {
  /** Files in the index after the run. */
  files: number;
  added: number;
  changed: number;
  deleted: number;
  unchanged: number;
  /** Chunks written in this run. */
  chunksWritten: number;
  /** Chunks embedded by the model in this run (cache misses). */
  chunksEmbedded: number;
  /** Chunks whose vector came from the embedding cache. */
  chunksFromCache: number;
  /** Chunks in the index after the run. */
  totalChunks: number;
  skipped: SkippedFile[];
  /** Git commit of HEAD when the run started, or null outside a git repository. */
  commit: string | null;
  /** Wall time in milliseconds. */
  durationMs: number;
  /**
   * Milliseconds the run waited for another process's index lock before it started, not counted in
   * `durationMs`; set by the caller that took the lock (the CLI's project indexer), absent when it did not wait.
   */
  lockWaitMs?: number;
  /** `paths` when the run was limited to {@link IndexProjectOptions.paths}, else `full`. */
  mode: 'full' | 'paths';
  /** Embedding-cache entries pruned after this run (0 when it did not prune). */
  cachePruned: number;
  /**
   * Added files that are moves (a file of the same content left the tree in this run) and kept the
   * departed file's vectors instead of being embedded again; also counted in `added`.
   */
  moved: number;
  /** Files (re)indexed in this run whose text had secrets replaced, with spans per rule (never the values). */
  redacted: RedactedFile[];
  /** Totals of `redacted`. */
  secrets: SecretsSummary;
}

interface PendingFile {
  record: FileRecord;
  chunks: Chunk[];
  /** Definitions and references, written in the same transaction as the chunks. */
  symbols: CodeSymbol[];
  isNew: boolean;
}

/**
 * Brings the index of `root` up to date with the tree: walks the project, compares content hashes
 * with the manifest, deletes files that left the tree, and chunks, embeds (through the cache) and
 * writes each added or changed file, the most recently modified first (a file just saved is searchable
 * before a long run over older files ends). A file's chunks, symbols and manifest entry are written in one store
 * transaction, so an interrupted run leaves every file either fully old or fully new, and the next
 * run resumes where it stopped. Unreadable files are skipped and keep their previous index entry.
 * Freshness: each file's entry records when its text was read (`FileRecord.indexedAt`; raised for a file
 * found unchanged that was saved since), and the index's `indexedAt` meta when the run started, so a
 * file saved or created while a run embeds still counts as pending afterwards (`countWorkTreeChanges`).
 * Files left out on purpose (binary, too large, generated, minified, a secret) are recorded with the time
 * the run looked at them (`recordSkippedFiles`), so that freshness does not count them as pending for
 * good: by a run limited to paths all of them, by a whole-tree run those saved after it started (its
 * start time covers the others).
 * A full run records the secret scanner it redacted with ({@link SECRET_SCANNER_META}), and makes it the
 * one queue workers are required to use when a whole-tree enqueue had required another ({@link REQUIRED_SCANNER_META}).
 * @throws MonoragError `EMBEDDER_UNAVAILABLE` or `STORE_FAILED`; `RUN_INTERRUPTED` when `signal` is
 *   aborted. Files written before the failure stay indexed.
 */
export async function indexProject(options: IndexProjectOptions): Promise<IndexReport> {
  const { root, store, chunker, embedder, logger, onProgress } = options;
  const batchChunks = options.embedBatchChunks ?? 128;
  const started = Date.now();
  const commit = await currentCommit(root);
  const given = runScope(options.paths);
  // The commit this run records must be one whose changes the index holds: with HEAD moved since the
  // recorded one (by a hook's operation or none), what changed between them is read too.
  const scope = await scopeToHead(root, given, await store.getMeta('indexedCommit'), commit);
  if (given !== undefined && scope === undefined) {
    // Widened to the whole tree (a changed ignore-rules file among the differences, or no diff to read).
    options.filter?.reset();
    logger?.info({ paths: given.length }, 'HEAD moved since the indexed commit in a way the index cannot diff: indexing the whole tree');
  }
  const differences = await headDifferences(root, scope);
  const walk = await walkProject({ root, maxFileBytes: options.maxFileBytes, extraIgnores: options.extraIgnores, scope, filter: options.filter });
  const skipped = [...walk.skipped];
  // Files left out on purpose, and when this run looked at them (see recordSkippedFiles). The walk looked
  // after `started`; a whole-tree run's `indexedAt` is `started`, so only a run limited to paths needs these.
  const handledSkips = new Map<string, number>(scope ? skipped.filter((s) => isHandledSkip(s.reason)).map((s) => [s.path, started]) : []);
  const manifest = new Map((await store.listFiles()).map((f) => [f.path, f]));
  const progress: IndexProgress = {
    phase: 'scan',
    filesTotal: walk.files.length,
    filesScanned: 0,
    filesToIndex: 0,
    filesIndexed: 0,
    chunksWritten: 0,
    chunksEmbedded: 0,
  };
  const report: IndexReport = {
    files: 0, added: 0, changed: 0, deleted: 0, unchanged: 0, chunksWritten: 0, chunksEmbedded: 0,
    chunksFromCache: 0, totalChunks: 0, skipped, commit, durationMs: 0, mode: scope ? 'paths' : 'full', cachePruned: 0, moved: 0,
    redacted: [], secrets: { files: 0, spans: 0, byRule: {} },
  };
  const redact = options.redactSecrets ?? true;
  const scanner = secretScannerOf(redact);
  // Indexed with another scanner (or before redaction existed): unchanged files are scanned again.
  const rescan = await needsSecretRescan(store, scanner, manifest.size);
  onProgress?.({ ...progress });

  let pending: PendingFile[] = [];
  let pendingChunks = 0;

  /**
   * Writes one file's chunks, vectors, symbols and manifest entry (one store transaction) and counts it.
   * The entry keeps the `indexedAt` of its read: a save while its batch was embedded stays pending.
   */
  const write = async (file: PendingFile, vectors: Float32Array[]): Promise<void> => {
    await store.writeFile(file.record, file.chunks, vectors, file.symbols);
    if (file.isNew) report.added++;
    else report.changed++;
    report.chunksWritten += file.chunks.length;
    progress.filesIndexed++;
    progress.chunksWritten += file.chunks.length;
  };

  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const all = pending.flatMap((p) => p.chunks);
    const { vectors, counts } = await embedChunks(all, store, embedder, options.signal);
    report.chunksEmbedded += counts.embedded;
    report.chunksFromCache += counts.cached;
    progress.chunksEmbedded += counts.embedded;
    let offset = 0;
    for (const file of pending) {
      await write(file, vectors.slice(offset, offset + file.chunks.length));
      offset += file.chunks.length;
    }
    pending = [];
    pendingChunks = 0;
    onProgress?.({ ...progress, phase: 'index' });
  };

  // Deletions first: a file that left the tree (or became ignored) never lingers in results. When a
  // new file of the same size appeared, its chunks and vectors are remembered by content hash, so a
  // file of the same content added in this run (a move) keeps them.
  const walked = new Set(walk.files.map((f) => f.path));
  // A file the walk skipped (too large, a symlink now) is deleted below: its skip says why.
  const skippedByWalk = new Map(skipped.map((s) => [s.path, s]));
  // New files by size: at most that many departed files of a size are kept in memory.
  const newSizes = new Map<number, number>();
  for (const f of walk.files) if (!manifest.has(f.path)) newSizes.set(f.size, (newSizes.get(f.size) ?? 0) + 1);
  const departed = new Map<string, DepartedFile[]>();
  for (const [path, record] of manifest) {
    if (!walked.has(path) && (!scope || inScope(scope, path)) && !belowUnreadableDir(walk, path)) {
      const same = departed.get(record.contentHash) ?? [];
      if (same.length < (newSizes.get(record.size) ?? 0)) {
        same.push({ record, chunks: await store.chunksOfFile(path), vectors: await store.vectorsOfFile(path) });
        departed.set(record.contentHash, same);
      }
      await store.deleteFile(path);
      report.deleted++;
      const skip = skippedByWalk.get(path);
      if (skip) skip.removed = true;
    }
  }

  /** Removes a file an earlier run indexed (a no-op for one it never did). */
  const forget = async (path: string): Promise<void> => {
    if (!manifest.has(path)) return;
    await store.deleteFile(path);
    report.deleted++;
  };
  /**
   * Counts a file read at `readAt` whose text is the indexed one. When it was saved since its entry's
   * read (an editor's save-all, `touch`, a tool rewriting the same bytes), the entry takes this read's
   * time, and nothing else is written: otherwise its mtime would keep it pending for good.
   */
  const unchanged = async (file: WalkedFile, previous: FileRecord, readAt: number): Promise<void> => {
    report.unchanged++;
    if (file.changedMs > previous.indexedAt) await store.setFileIndexedAt(file.path, previous.contentHash, readAt);
  };
  /**
   * Records a file read at `readAt` that the index leaves out on purpose, and removes it if an earlier
   * run indexed it. Freshness learns when it was handled when the run's start does not cover it.
   */
  const leaveOut = async (file: WalkedFile, reason: 'binary' | 'generated' | 'minified' | 'secret', readAt: number): Promise<void> => {
    const { path } = file;
    skipped.push(manifest.has(path) ? { path, reason, removed: true } : { path, reason });
    // A whole-tree run's start covers a file saved before it (the walk's mtime may predate a save since).
    const info = await lstat(file.absPath).catch(() => undefined);
    if (scope || (info ? changedAt(info) : 0) > started) handledSkips.set(path, readAt);
    await forget(path);
  };

  // Newest first (ties by path): what was just saved is written in the first batch.
  const byAge = [...walk.files].sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of byAge) {
    throwIfInterrupted(options.signal);
    // The file's `indexedAt`: taken before the read, so a save during the read or after it is later.
    const readAt = Date.now();
    const read = await readProjectFile(file.absPath);
    progress.filesScanned++;
    if (read.kind === 'binary') {
      await leaveOut(file, 'binary', readAt);
      continue;
    }
    if (read.kind === 'gone') {
      // Deleted (or moved away) since the walk: a deletion, as the next walk would find it; an indexed
      // copy must not stay searchable, nor the index claim to be fresh.
      await forget(file.path);
      continue;
    }
    if (read.kind === 'unreadable') {
      skipped.push({ path: file.path, reason: 'unreadable', detail: read.detail });
      logger?.debug({ path: file.path, detail: read.detail }, 'skipping unreadable file');
      // The index keeps what it held of the file (as for an unreadable directory); freshness learns that
      // this run looked at it, so a `chmod 000` is not pending for good: only a later change is.
      handledSkips.set(file.path, readAt);
      continue;
    }
    if (isGeneratedFile(file.path, read.text)) {
      await leaveOut(file, 'generated', readAt);
      continue;
    }
    if (holdsPrivateKey(read.text)) {
      await leaveOut(file, 'secret', readAt);
      continue;
    }
    const previous = manifest.get(file.path);
    // The content hash is that of the file as written (secrets included), so editing a secret re-indexes the file.
    const same = previous !== undefined && previous.contentHash === read.contentHash;
    if (same && !rescan) {
      await unchanged(file, previous, readAt);
      continue;
    }
    let redacted;
    try {
      redacted = await redactFileText(file.path, read.text, redact);
    } catch (error) {
      if (!isMonoragError(error)) throw error;
      // Never index a file the scan could not check; its previous entry (if any) stays, as for unreadable files.
      skipped.push({ path: file.path, reason: 'unreadable', detail: error.message });
      logger?.warn({ path: file.path, err: error.message }, 'skipping a file the secret scan failed on');
      continue;
    }
    if (same && sameSecrets(previous.secrets, redacted.secrets)) {
      await unchanged(file, previous, readAt);
      continue;
    }
    const { chunks, symbols, language, fallback } = chunker.analyse(file.path, redacted.text);
    // A bundle (lines averaging over 500 characters) is left out; a file of mostly long lines under that
    // average keeps its windows (hand-written code with a long line among short ones is not minified at all).
    if (fallback === 'minified' && redacted.text.length / lineCount(redacted.text) > MAX_AVERAGE_LINE_CHARS) {
      await leaveOut(file, 'minified', readAt);
      continue;
    }
    progress.filesToIndex++;
    const record: FileRecord = { path: file.path, contentHash: read.contentHash, size: file.size, language, chunkCount: chunks.length, indexedAt: readAt };
    // Files of a code language chunked by windows (minified, parse time-out, no grammar) say why; `monorag status` lists them.
    if (fallback !== null) record.fallback = fallback;
    if (redacted.secrets) {
      record.secrets = redacted.secrets;
      report.redacted.push({ path: file.path, secrets: redacted.secrets });
    }
    // Identical files moved together each take one departed copy.
    const candidates = previous === undefined ? departed.get(read.contentHash) : undefined;
    const kept = candidates && candidates.length > 0 ? movedVectors(candidates[0], chunks) : undefined;
    if (kept) {
      // Written at once (its old path is already gone): a crash or a long run of edits must not
      // leave a moved file at neither path until the next embedding batch.
      record.embeddedFrom = kept.from;
      await write({ record, chunks, symbols, isNew: true }, kept.vectors);
      candidates!.shift();
      report.moved++;
      continue;
    }
    // A file that would overflow the batch goes in the next one: the files before it (the newest) are
    // written now instead of waiting for a large file's embedding.
    if (pendingChunks > 0 && pendingChunks + chunks.length > batchChunks) await flush();
    pending.push({ record, chunks, symbols, isNew: previous === undefined });
    pendingChunks += chunks.length;
    if (pendingChunks >= batchChunks) await flush();
    else if (progress.filesScanned % 50 === 0) onProgress?.({ ...progress, phase: 'index' });
  }
  await flush();

  // When the run started, not now: a file created after the walk is newer than the index, and pending.
  // Only a whole-tree run: a run limited to paths (a git hook, `index --paths`, the watcher) saw no other
  // file, so a new file elsewhere must stay newer than the index (files it wrote carry their own stamps).
  await recordSkippedFiles(store, handledSkips, scope);
  if (!scope) await store.setMeta('indexedAt', String(started));
  await store.setMeta('indexedCommit', commit ?? '');
  // Which tracked files the index now holds in a state other than HEAD's (freshness notices them put back).
  await recordHeadDifferences(store, commit, differences, scope);
  if (!scope) {
    await store.setMeta(SECRET_SCANNER_META, scanner);
    // The whole index now stands on this scanner: queue workers must redact with it too (a requirement
    // left by an earlier whole-tree enqueue with another setting would keep refusing those that do).
    const required = await store.getMeta(REQUIRED_SCANNER_META);
    if (required !== undefined && required !== scanner) await store.setMeta(REQUIRED_SCANNER_META, scanner);
  }
  report.secrets = summariseRedactedFiles(report.redacted);
  if (!scope && options.cacheRetentionMs !== undefined) {
    report.cachePruned = (await store.pruneEmbeddingCache(options.cacheRetentionMs)).removed;
  }
  const stats = await store.stats();
  report.files = stats.files;
  report.totalChunks = stats.chunks;
  report.durationMs = Date.now() - started;
  onProgress?.({ ...progress, phase: 'done' });
  logger?.info({ ...report, skipped: report.skipped.length, redacted: report.redacted.length }, 'index run finished');
  return report;
}

/** A file deleted in this run that a move may have re-created elsewhere. */
interface DepartedFile {
  record: FileRecord;
  chunks: Chunk[];
  /** Dense vectors by chunk id. */
  vectors: Map<string, Float32Array>;
}

/**
 * The vectors a moved file keeps: those of the departed file's matching chunks, and the path they
 * were embedded under. Undefined when nothing departed with this content or the chunking differs
 * (the file is then embedded anew).
 */
function movedVectors(departed: DepartedFile | undefined, chunks: Chunk[]): { vectors: Float32Array[]; from: string } | undefined {
  if (!departed || chunks.length === 0) return undefined;
  const ids = matchMovedChunks(chunks, departed.chunks);
  if (!ids) return undefined;
  const vectors = ids.map((id) => departed.vectors.get(id));
  if (vectors.some((v) => v === undefined)) return undefined;
  return { vectors: vectors as Float32Array[], from: departed.record.embeddedFrom ?? departed.record.path };
}

/** Lines of `text` (a final newline does not start another). */
function lineCount(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

