import { summariseRedactedFiles, type RedactedFile, type SecretsSummary } from '@monorag/indexer';
import type { FileRecord } from '@monorag/shared';

/** The secrets redacted in an index, from its manifest: totals and a few example paths. */
export interface IndexSecrets extends SecretsSummary {
  /** Up to three paths of files with secrets redacted. */
  examples: string[];
}

/** Sums the `secrets` of manifest entries (what `monorag status` shows). */
export function indexSecrets(files: readonly FileRecord[]): IndexSecrets {
  const redacted: RedactedFile[] = files.flatMap((f) => (f.secrets ? [{ path: f.path, secrets: f.secrets }] : []));
  return { ...summariseRedactedFiles(redacted), examples: redacted.slice(0, 3).map((f) => f.path) };
}

/** `3 in 2 files (aws 2, github 1)`, or `none`. */
export function formatSecrets(summary: SecretsSummary): string {
  if (summary.spans === 0) return 'none';
  return `${summary.spans} in ${summary.files} file${summary.files === 1 ? '' : 's'} (${ruleCounts(summary.byRule)})`;
}

/** `aws 2, github 1`. */
function ruleCounts(byRule: Record<string, number>): string {
  return Object.entries(byRule).map(([rule, count]) => `${rule} ${count}`).join(', ');
}

/** Most redacted files listed in the text report of `monorag index`; `--json` lists them all. */
const REDACTED_SHOWN = 10;

/** The `monorag index` report's lines on secrets redacted in this run; empty when there were none. */
export function redactedLines(files: readonly RedactedFile[]): string {
  if (files.length === 0) return '';
  const lines = [`  secrets redacted: ${formatSecrets(summariseRedactedFiles(files))}\n`];
  for (const file of files.slice(0, REDACTED_SHOWN)) lines.push(`  redacted: ${file.path} (${ruleCounts(file.secrets)})\n`);
  if (files.length > REDACTED_SHOWN) lines.push(`  redacted: ${files.length - REDACTED_SHOWN} more files (--json lists them all)\n`);
  return lines.join('');
}
