import { isNotebookPath, readNotebook } from '@monorag/chunker';

/** Lines at the top of a file searched for a generated-code marker. */
const HEAD_LINES = 5;

/**
 * Markers that tools put at the top of generated files: `@generated` (Meta's convention, used by
 * Relay, Buck, Prisma and others), Go's `Code generated ... DO NOT EDIT.` (golang.org/s/generatedcode)
 * and the common `auto-generated` banner (a bare `DO NOT EDIT` is not enough: hand-written files use it too).
 */
const MARKERS = [/@generated\b/, /\bCode generated\b.*\bDO NOT EDIT\b/, /\bauto-?generated\b/i];

/**
 * True when the first lines of `text` carry a generated-code marker. Generated files are left out
 * of the index: they repeat what their source says and crowd out the code people edit.
 */
export function isGeneratedText(text: string): boolean {
  let end = 0;
  for (let i = 0; i < HEAD_LINES && end !== -1; i++) end = text.indexOf('\n', end + (i === 0 ? 0 : 1));
  const head = end === -1 ? text.slice(0, 2000) : text.slice(0, Math.min(end, 2000));
  return MARKERS.some((marker) => marker.test(head));
}

/**
 * {@link isGeneratedText} for a file at `path`: a Jupyter notebook (`.ipynb`) is judged by its cells'
 * source, not its JSON, whose first lines can hold an output (a printed `auto-generated` banner) or be
 * the whole notebook on one line; a `.ipynb` that is no notebook is judged by its text.
 */
export function isGeneratedFile(path: string, text: string): boolean {
  if (!isNotebookPath(path)) return isGeneratedText(text);
  const notebook = readNotebook(text);
  if (typeof notebook === 'string') return isGeneratedText(text);
  return isGeneratedText(notebook.cells.flatMap((cell) => cell.lines).join('\n'));
}
