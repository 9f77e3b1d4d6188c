import type { IndexFreshness } from '@monorag/retriever';
import { describe, expect, it } from 'vitest';
import { formatFreshness } from './format-freshness.js';

const fresh = { indexedAt: '2026-12-03T16:00:00.000Z', indexedCommit: '0123456789abcdef', files: 1, chunks: 1, pendingChanges: 0, stale: false } as IndexFreshness;

describe('formatFreshness', () => {
  it('counts in English (a trial: "1 files, 1 chunks") and shortens the commit', () => {
    expect(formatFreshness(fresh)).toBe('_Index: 1 file, 1 chunk, updated 2026-12-03T16:00:00.000Z, commit 0123456789ab._');
    expect(formatFreshness({ ...fresh, files: 2, chunks: 7, pendingChanges: 3 })).toBe(
      '_Index: 2 files, 7 chunks, updated 2026-12-03T16:00:00.000Z, commit 0123456789ab, 3 change(s) pending._',
    );
  });

  it('adds the warning of a stale index as a quote', () => {
    expect(formatFreshness({ ...fresh, indexedAt: null, indexedCommit: null, files: 0, chunks: 0, warning: 'Run `monorag index`.' })).toBe(
      '_Index: 0 files, 0 chunks, updated never._\n\n> Stale index: Run `monorag index`.',
    );
  });
});
