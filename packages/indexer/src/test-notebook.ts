/** Options of {@link testNotebook}. */
export interface TestNotebookOptions {
  /** Source of the code cell. */
  code: string;
  /** Base64 characters of the code cell's image/png output (the bulk of the file); default 0, no output. */
  imageChars?: number;
}

/**
 * For tests: a nbformat 4 notebook as Jupyter writes it (`indent=1`, keys sorted, final newline): a Markdown
 * cell `# Rainfall`, then a code cell holding `code` (one JSON string per line) with an image output of
 * `imageChars` base64 characters on one row. Its cell sources are `# Rainfall` (10 bytes) plus `code`'s
 * UTF-8 bytes less a final newline.
 */
export function testNotebook({ code, imageChars = 0 }: TestNotebookOptions): string {
  const outputs = imageChars > 0
    ? [{ data: { 'image/png': 'iVBORw0KGgo'.padEnd(imageChars, 'A'), 'text/plain': ['<Figure size 640x480 with 1 Axes>'] }, metadata: {}, output_type: 'display_data' }]
    : [];
  const notebook = {
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Rainfall'] },
      { cell_type: 'code', execution_count: 1, metadata: {}, outputs, source: code.split(/(?<=\n)/) },
    ],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  return `${JSON.stringify(notebook, null, 1)}\n`;
}
