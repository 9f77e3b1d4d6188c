import type { IndexFreshness } from '@monorag/retriever';

/** One Markdown line saying how fresh the index is. */
export function formatFreshness(index: IndexFreshness): string {
  const when = index.indexedAt ?? 'never';
  const commit = index.indexedCommit ? `, commit ${index.indexedCommit.slice(0, 12)}` : '';
  return `_Index: ${index.files} files, ${index.chunks} chunks, updated ${when}${commit}._`;
}
