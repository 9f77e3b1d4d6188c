/**
 * Whether a chunk is a Markdown cell of a Jupyter notebook. Every chunk of a notebook has language
 * `jupyter`; its Markdown cells are chunked as sections (kind `section`), which no code planner gives.
 * Used wherever prose and code are told apart (BM25 comment weighting, the intent prior).
 */
export function isNotebookProse(chunk: { language: string; kind?: string }): boolean {
  return chunk.language === 'jupyter' && chunk.kind === 'section';
}
