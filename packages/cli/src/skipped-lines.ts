import type { SkippedFile } from '@monorag/indexer';

/** Most skipped files a run's text report lists; the rest are counted in one line. */
export const SKIPPED_SHOWN = 10;

/**
 * A run report's lines naming skipped files and why, each `  skipped: <path> (<reason>[: <detail>])`,
 * with `; removed from the index` when an earlier run had indexed the file (the skip is why the run
 * counts it as deleted): `  skipped: big.log (too-large: 2097152 bytes > 1048576; removed from the index)`.
 * At most {@link SKIPPED_SHOWN}; then `  skipped: N more (<more>)`, where `more` says where the rest are
 * listed (`--json lists them all`). Each line ends with a newline; no skipped file gives ''.
 */
export function skippedLines(skipped: readonly SkippedFile[], more: string): string {
  const lines = skipped.slice(0, SKIPPED_SHOWN).map(
    (s) => `  skipped: ${s.path} (${s.reason}${s.detail ? `: ${s.detail}` : ''}${s.removed ? '; removed from the index' : ''})\n`,
  );
  if (skipped.length > SKIPPED_SHOWN) lines.push(`  skipped: ${skipped.length - SKIPPED_SHOWN} more (${more})\n`);
  return lines.join('');
}
