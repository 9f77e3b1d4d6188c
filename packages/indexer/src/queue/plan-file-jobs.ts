import { holdsPrivateKey } from '@monorag/shared';
import type { ChunkStore } from '@monorag/store';
import { isGeneratedFile } from '../detect-generated.js';
import { readProjectFile } from '../read-project-file.js';
import { needsSecretRescan, secretScannerOf } from '../redact-file-text.js';
import { belowUnreadableDir, walkProject } from '../walk-project.js';
import { inScope, runScope } from '../path-scope.js';

/** Options of {@link planFileJobs}. */
export interface PlanFileJobsOptions {
  /** Absolute real path of the project root. */
  root: string;
  store: ChunkStore;
  /** Files larger than this many bytes are left out as the walk leaves them out (a notebook by its cell sources). */
  maxFileBytes: number;
  extraIgnores?: readonly string[];
  /**
   * Only these repo-relative paths (files or directories, new, changed or deleted), as `index --paths`
   * takes them; default, or when one is an ignore-rules file, the whole tree.
   */
  paths?: readonly string[];
  /**
   * Whether the workers redact secrets (config `index.redactSecrets`); default true. When the scanner
   * this gives ({@link secretScannerOf}) is not the one the index was written with, unchanged files are planned too.
   */
  redactSecrets?: boolean;
}

/** The paths that need a file job, and what the plan saw. */
export interface FileJobPlan {
  /** Paths to hand to the queue: new or changed files, indexed files that left the tree, and re-scans; sorted. */
  paths: string[];
  /** Files found by the walk. */
  walked: number;
  /**
   * Walked files the index leaves out by their text, as a worker would (generated code, a private key),
   * that are not in the index: no job, since a worker would only leave them out again (each enqueue
   * planned one for good). One the index holds gets a job, which removes it.
   */
  leftOut: number;
  /**
   * Walked files whose content hash equals the manifest's and that need no job. One saved since its
   * entry's read (`touch`, a chmod, a copy that keeps the bytes) has the entry's read time moved to this
   * plan's read, as {@link indexProject} does: no job would record it, and freshness would count the
   * file as changed for good.
   */
  unchanged: number;
  /**
   * Walked files whose content hash equals the manifest's, planned anyway because the index was written
   * with another secret scanner (store meta `secretScanner`; absent counts as another, see {@link needsSecretRescan}):
   * a worker scans each again and re-chunks it if its redaction differs. Included in `paths`; 0 when
   * the manifest is empty (every file is new).
   */
  rescan: number;
  /**
   * The scanner the planned jobs bring the index to ({@link secretScannerOf} of `redactSecrets`): once
   * every job of a full plan has succeeded, it is the index's `secretScanner` meta.
   */
  scanner: string;
}

/**
 * Diffs the tree against the store's manifest, as {@link indexProject} does, without chunking or
 * embedding anything: the work goes to queue workers. Binary, generated and unreadable files are
 * left to the worker, which removes them from the index or retries. With `paths`, only files under
 * them are walked, and only indexed files under them that left the tree are planned for deletion.
 * When the store's `secretScanner` meta differs from `scanner`, unchanged text files (under
 * `paths`, if given) are planned as well, for {@link indexFile} to scan again (see `rescan`).
 * @throws MonoragError `INVALID_ARGUMENT` for a path that is absolute or leaves the root; the store's errors.
 */
export async function planFileJobs({ root, store, maxFileBytes, extraIgnores, paths: only, redactSecrets = true }: PlanFileJobsOptions): Promise<FileJobPlan> {
  const scope = runScope(only);
  const walk = await walkProject({ root, maxFileBytes, extraIgnores, scope });
  const manifest = new Map((await store.listFiles()).map((f) => [f.path, f]));
  const scanner = secretScannerOf(redactSecrets);
  const rescanning = await needsSecretRescan(store, scanner, manifest.size);
  const paths: string[] = [];
  let unchanged = 0;
  let rescan = 0;
  let leftOut = 0;
  const walked = new Set<string>();
  for (const file of walk.files) {
    walked.add(file.path);
    const readAt = Date.now();
    const read = await readProjectFile(file.absPath);
    const previous = manifest.get(file.path);
    const same = read.kind === 'text' && previous?.contentHash === read.contentHash;
    if (same && !rescanning) {
      unchanged++;
      if (file.changedMs > previous.indexedAt) await store.setFileIndexedAt(file.path, previous.contentHash, readAt);
    }
    else if (read.kind === 'text' && !previous && (isGeneratedFile(file.path, read.text) || holdsPrivateKey(read.text))) leftOut++;
    else if (read.kind === 'text' || previous) paths.push(file.path);
    if (same && rescanning) rescan++;
  }
  for (const path of manifest.keys()) if (!walked.has(path) && (!scope || inScope(scope, path)) && !belowUnreadableDir(walk, path)) paths.push(path);
  return { paths: paths.sort(), walked: walk.files.length, unchanged, rescan, leftOut, scanner };
}
