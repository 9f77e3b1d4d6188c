/**
 * Version of the chunker's output: part of the index identity (`IndexIdentity.chunkerVersion`).
 * Bump it whenever chunk boundaries, kinds, symbols or headers can change for the same input.
 * tsc-15: Jupyter notebooks (`.ipynb`, language `jupyter`, was `text`) are chunked by their cells' decoded
 * source (code cells by the kernel language's syntax planner, with symbols; Markdown cells by sections),
 * no longer as line windows of their JSON; every other language's chunks are unchanged.
 */
export const CHUNKER_VERSION = 'tsc-15';
