import type { IndexReport } from '@monorag/indexer';
import { describe, expect, it } from 'vitest';
import { indexRunSummary } from './index-control.js';

const REPORT: IndexReport = {
  files: 40, added: 2, changed: 1, deleted: 1, unchanged: 36, chunksWritten: 30, chunksEmbedded: 12, chunksFromCache: 18, totalChunks: 400,
  skipped: [], commit: null, durationMs: 2500, mode: 'full', cachePruned: 0, moved: 0, redacted: [], secrets: { files: 0, spans: 0, byRule: {} },
};

describe('indexRunSummary', () => {
  it('lists what the run skipped (at most 20, all counted), with the detail and whether it was removed', () => {
    const skipped = [
      { path: 'src/huge.ts', reason: 'too-large' as const, detail: '1350025 bytes > 1048576', removed: true as const },
      ...Array.from({ length: 24 }, (_, i) => ({ path: `assets/${i}.bin`, reason: 'binary' as const })),
    ];
    const summary = indexRunSummary({ ...REPORT, skipped });
    expect(summary.skipped?.total).toBe(25);
    expect(summary.skipped?.files).toHaveLength(20);
    expect(summary.skipped?.files.slice(0, 2)).toEqual([
      { path: 'src/huge.ts', reason: 'too-large', detail: '1350025 bytes > 1048576', removed: true },
      { path: 'assets/0.bin', reason: 'binary' },
    ]);
    expect(indexRunSummary(REPORT)).toEqual({
      mode: 'full', files: 40, added: 2, changed: 1, deleted: 1, unchanged: 36, chunksEmbedded: 12, moved: 0, cachePruned: 0, durationMs: 2500,
    });
  });
});
