import type { ChunkStore } from '@monorag/store';
import { readProjectFile } from '../read-project-file.js';
import { walkProject } from '../walk-project.js';
import { inScope, runScope } from '../path-scope.js';

/** Options of {@link planFileJobs}. */
export interface PlanFileJobsOptions {
  /** Absolute real path of the project root. */
  root: string;
  store: ChunkStore;
  maxFileBytes: number;
  extraIgnores?: readonly string[];
  /**
   * Only these repo-relative paths (files or directories, new, changed or deleted), as `index --paths`
   * takes them; default, or when one is an ignore-rules file, the whole tree.
   */
  paths?: readonly string[];
}

/** The paths that need a file job, and what the plan saw. */
export interface FileJobPlan {
  /** Paths to hand to the queue: new or changed files, and indexed files that left the tree; sorted. */
  paths: string[];
  /** Files found by the walk. */
  walked: number;
  /** Walked files whose content hash equals the manifest's. */
  unchanged: number;
}

/**
 * Diffs the tree against the store's manifest, as {@link indexProject} does, without chunking or
 * embedding anything: the work goes to queue workers. Binary, generated and unreadable files are
 * left to the worker, which removes them from the index or retries. With `paths`, only files under
 * them are walked, and only indexed files under them that left the tree are planned for deletion.
 * @throws MonoragError `INVALID_ARGUMENT` for a path that is absolute or leaves the root; the store's errors.
 */
export async function planFileJobs({ root, store, maxFileBytes, extraIgnores, paths: only }: PlanFileJobsOptions): Promise<FileJobPlan> {
  const scope = runScope(only);
  const walk = await walkProject({ root, maxFileBytes, extraIgnores, scope });
  const manifest = new Map((await store.listFiles()).map((f) => [f.path, f.contentHash]));
  const paths: string[] = [];
  let unchanged = 0;
  const walked = new Set<string>();
  for (const file of walk.files) {
    walked.add(file.path);
    const read = await readProjectFile(file.absPath);
    if (read.kind === 'text' && manifest.get(file.path) === read.contentHash) unchanged++;
    else if (read.kind === 'text' || manifest.has(file.path)) paths.push(file.path);
  }
  for (const path of manifest.keys()) if (!walked.has(path) && (!scope || inScope(scope, path))) paths.push(path);
  return { paths: paths.sort(), walked: walk.files.length, unchanged };
}
