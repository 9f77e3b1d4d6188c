/** A file whose indexed text had secrets replaced in one index run. */
export interface RedactedFile {
  path: string;
  /** Spans redacted per secretlint rule id; never the values. */
  secrets: Record<string, number>;
}

/** The secrets an index run redacted, in total. */
export interface SecretsSummary {
  /** Files (re)indexed in the run whose text had secrets replaced. */
  files: number;
  /** Spans replaced in them. */
  spans: number;
  /** Spans per rule id, keys sorted. */
  byRule: Record<string, number>;
}

/** Totals of a run's redacted files. */
export function summariseRedactedFiles(files: readonly RedactedFile[]): SecretsSummary {
  const byRule: Record<string, number> = {};
  let spans = 0;
  for (const file of files) {
    for (const [rule, count] of Object.entries(file.secrets)) {
      byRule[rule] = (byRule[rule] ?? 0) + count;
      spans += count;
    }
  }
  const sorted = Object.fromEntries(Object.entries(byRule).sort(([a], [b]) => a.localeCompare(b)));
  return { files: files.length, spans, byRule: sorted };
}
