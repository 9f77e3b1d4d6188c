import type { IndexFreshness } from '@monorag/retriever';
import { countNoun } from '@monorag/shared';

/** Markdown saying how fresh the index is: one line, and a warning line when the tree has moved on. */
export function formatFreshness(index: IndexFreshness): string {
  const when = index.indexedAt ?? 'never';
  const commit = index.indexedCommit ? `, commit ${index.indexedCommit.slice(0, 12)}` : '';
  const pending = index.pendingChanges > 0 ? `, ${index.pendingChanges} change(s) pending` : '';
  const line = `_Index: ${countNoun(index.files, 'file')}, ${countNoun(index.chunks, 'chunk')}, updated ${when}${commit}${pending}._`;
  return index.warning ? `${line}\n\n> Stale index: ${index.warning}` : line;
}
