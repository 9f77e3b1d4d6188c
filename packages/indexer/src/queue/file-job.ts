import { createHash } from 'node:crypto';

/** Data of one file job: which file of which project to bring up to date, and the trace it belongs to. */
export interface FileJobData {
  /** Project key (the same on every machine: the queue and store are named after it). */
  project: string;
  /** Repo-relative POSIX path; the worker reads it under its own checkout of the project. */
  path: string;
  /** W3C trace context (`traceparent`, `tracestate`) of the enqueuing span, see {@link injectTraceContext}. */
  trace: Record<string, string>;
}

/** What a worker did with a file job. */
export interface FileJobResult {
  path: string;
  /**
   * `indexed`: chunks written; `unchanged`: manifest hash already current (and, in a secret re-scan, the
   * redaction too); `deleted`: gone, binary, generated or too large.
   */
  outcome: 'indexed' | 'unchanged' | 'deleted';
  chunks: number;
}

/** Progress a worker reports for a file job (BullMQ `job.updateProgress`). */
export interface FileJobProgress {
  path: string;
  phase: 'read' | 'chunked' | 'embedded' | 'written';
  chunks: number;
}

/**
 * The BullMQ job id of a file: hex sha256 of project and path. While a job of that id waits, adding
 * another is a no-op, so repeated changes to one file coalesce into one job (the worker reads the file
 * when it runs, so it indexes the latest content).
 */
export function fileJobId(project: string, path: string): string {
  return createHash('sha256').update(`${project}\0${path}`).digest('hex');
}

/** The BullMQ queue name of a project's file jobs: `monorag-index-<project>` with `[^A-Za-z0-9_-]` replaced by `-`. */
export function indexQueueName(project: string): string {
  return `monorag-index-${project.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}
