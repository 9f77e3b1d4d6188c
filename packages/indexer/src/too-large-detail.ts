import { isNotebookPath, readNotebook } from '@monorag/chunker';

/**
 * How many times `maxFileBytes` a Jupyter notebook's file may be on disk and still be read to measure its
 * cell sources (16: 16 MiB with the default 1 MiB limit). A notebook's outputs (base64 plots, HTML tables)
 * are most of its bytes and are never indexed, but a run still reads, parses, hashes and scans the whole
 * file for secrets (about 0.5 s for a 15 MB notebook), on every full run for the check and once more to
 * index it; the ceiling bounds that cost at 16 times a plain file's, and scales with the limit a project chose.
 * A notebook past it is mostly data (embedded datasets, many high-resolution figures) and is left out unread.
 */
export const NOTEBOOK_SIZE_FACTOR = 16;

/** Options of {@link tooLargeDetail}. */
export interface TooLargeOptions {
  /** Repo-relative POSIX path; a notebook is a file the chunker reads as one (`.ipynb`, any case). */
  path: string;
  /** Size of the file on disk, in bytes. */
  size: number;
  /** Config `index.maxFileBytes`: the most bytes a file (or a notebook's cell sources) may have. */
  maxFileBytes: number;
  /**
   * The file's text, decoded and normalised (`readProjectFile`), or undefined when it is binary, gone or
   * unreadable. Called only for a notebook over `maxFileBytes` and at most its ceiling.
   */
  readText: () => Promise<string | undefined>;
}

/** The UTF-8 bytes of a notebook's cell sources (each cell's decoded lines joined by LF), or the reason `text` is no nbformat 4 notebook. */
function sourceBytes(text: string): number | string {
  const notebook = readNotebook(text);
  if (typeof notebook === 'string') return notebook;
  let bytes = 0;
  for (const cell of notebook.cells) {
    for (const line of cell.lines) bytes += Buffer.byteLength(line, 'utf8');
    bytes += Math.max(0, cell.lines.length - 1);
  }
  return bytes;
}

/**
 * Why a file is left out as `too-large`, as the skip's `detail`, or null when it is indexed. A file of at
 * most `maxFileBytes` is never too large. Over it, a file is too large (`2097152 bytes > 1048576`), unless it
 * is a Jupyter notebook: only its cell sources are indexed, so those are measured instead. A notebook of at
 * most {@link NOTEBOOK_SIZE_FACTOR} x `maxFileBytes` on disk is read ({@link TooLargeOptions.readText}) and
 * is too large only when its sources' UTF-8 bytes exceed `maxFileBytes`
 * (`cell sources 1200000 bytes > 1048576 (notebook file 3000000 bytes)`); a larger notebook is too large
 * unread (`notebook file 20000000 bytes > 16777216, 16 x maxFileBytes: the most read to measure its cell sources`).
 * A `.ipynb` file that is no nbformat 4 notebook (not JSON, another version), or is binary or unreadable,
 * is measured by its file size, as any file (`2097152 bytes > 1048576 (invalid-notebook: the file size counts)`).
 * @throws whatever `readText` throws
 */
export async function tooLargeDetail({ path, size, maxFileBytes, readText }: TooLargeOptions): Promise<string | null> {
  if (size <= maxFileBytes) return null;
  const plain = `${size} bytes > ${maxFileBytes}`;
  if (!isNotebookPath(path)) return plain;
  const ceiling = NOTEBOOK_SIZE_FACTOR * maxFileBytes;
  if (size > ceiling) {
    return `notebook file ${size} bytes > ${ceiling}, ${NOTEBOOK_SIZE_FACTOR} x maxFileBytes: the most read to measure its cell sources`;
  }
  const text = await readText();
  if (text === undefined) return plain;
  const sources = sourceBytes(text);
  if (typeof sources === 'string') return `${plain} (${sources}: the file size counts)`;
  return sources > maxFileBytes ? `cell sources ${sources} bytes > ${maxFileBytes} (notebook file ${size} bytes)` : null;
}
