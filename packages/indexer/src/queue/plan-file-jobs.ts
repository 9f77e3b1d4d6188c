import type { ChunkStore } from '@monorag/store';
import { readProjectFile } from '../read-project-file.js';
import { walkProject } from '../walk-project.js';

/** Options of {@link planFileJobs}. */
export interface PlanFileJobsOptions {
  /** Absolute real path of the project root. */
  root: string;
  store: ChunkStore;
  maxFileBytes: number;
  extraIgnores?: readonly string[];
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
 * left to the worker, which removes them from the index or retries.
 */
export async function planFileJobs({ root, store, maxFileBytes, extraIgnores }: PlanFileJobsOptions): Promise<FileJobPlan> {
  const walk = await walkProject({ root, maxFileBytes, extraIgnores });
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
  for (const path of manifest.keys()) if (!walked.has(path)) paths.push(path);
  return { paths: paths.sort(), walked: walk.files.length, unchanged };
}
