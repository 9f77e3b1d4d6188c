import { findSecrets, redactSecrets, SECRET_SCANNER_ID, summariseSecrets } from '@monorag/secrets';
import type { ChunkStore } from '@monorag/store';

/** A file's text as the index keeps it. */
export interface RedactedText {
  /** The text with each secret replaced by `[REDACTED:<rule>]`; the same line count as the file. */
  text: string;
  /** Spans redacted per rule id; undefined when none were (or redaction is off). */
  secrets?: Record<string, number>;
}

/**
 * The text of a project file as it is chunked and embedded: with redaction on, secrets found by
 * `findSecrets` are replaced (line numbers unchanged); off, the text as read.
 * @throws MonoragError `FILE_UNREADABLE` when the secret scan fails on the text.
 */
export async function redactFileText(path: string, text: string, redact: boolean): Promise<RedactedText> {
  if (!redact) return { text };
  const spans = await findSecrets(path, text);
  if (spans.length === 0) return { text };
  return { text: redactSecrets(text, spans), secrets: summariseSecrets(spans) };
}

/** Whether two manifests' secret counts are the same (both absent counts as the same). */
export function sameSecrets(a: Record<string, number> | undefined, b: Record<string, number> | undefined): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
}

/** Store metadata key holding the scanner the indexed text was redacted with (`SECRET_SCANNER_ID`, or `off`). */
export const SECRET_SCANNER_META = 'secretScanner';

/**
 * Store metadata key holding the scanner every queue worker must redact with: the one the last whole-tree
 * `monorag jobs enqueue` (or `index` in queue mode) planned for, written before its jobs are added. A
 * worker with another `index.redactSecrets` refuses the jobs (`indexFile` throws CONFIG_INVALID), so that
 * no file is left scanned by a worker of the old setting while the index records the new one.
 */
export const REQUIRED_SCANNER_META = 'requiredSecretScanner';

/**
 * The scanner a process redacts with, as {@link SECRET_SCANNER_META} records it: `SECRET_SCANNER_ID`
 * when `redact` (config `index.redactSecrets`) is on, `off` when it is off.
 */
export function secretScannerOf(redact: boolean): string {
  return redact ? SECRET_SCANNER_ID : 'off';
}

/**
 * Whether an index that holds files (`indexedFiles` > 0) was written with another scanner than `scanner`,
 * or by a version that recorded none ({@link SECRET_SCANNER_META}): its unchanged files must be scanned
 * again. The rule of both the in-process run (`indexProject`) and the queue's plan (`planFileJobs`).
 * @throws the store's errors
 */
export async function needsSecretRescan(store: Pick<ChunkStore, 'getMeta'>, scanner: string, indexedFiles: number): Promise<boolean> {
  return indexedFiles > 0 && (await store.getMeta(SECRET_SCANNER_META)) !== scanner;
}
