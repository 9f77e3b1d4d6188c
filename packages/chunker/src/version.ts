/**
 * Version of the chunker's output: part of the index identity (`IndexIdentity.chunkerVersion`).
 * Bump it whenever chunk boundaries, kinds, symbols or headers can change for the same input.
 * tsc-15: Jupyter notebooks (`.ipynb`, language `jupyter`, was `text`) are chunked by their cells' decoded
 * source (code cells by the kernel language's syntax planner, with symbols; Markdown cells by sections),
 * no longer as line windows of their JSON; every other language's chunks are unchanged.
 * tsc-16: JavaScript/TypeScript test callbacks with a literal title (`describe('Pool', ...)`, `it.only(...)`,
 * node:test `await t.test('unsupported route', ...)`) are definitions of kind `test` named by the title (chunk
 * symbol and symbol table), nested tests scoped by the titles around them; a test holding tests splits like a
 * class. They were unnamed `module` code; chunks of files without test calls are unchanged.
 * tsc-17: a notebook code cell that does not parse alone (an unclosed bracket, `!pip install`, a line magic)
 * or opens with a cell magic is planned by itself, a cell magic's body in the language it names; such a
 * cell's error no longer hides the definitions of the cells after it. Other files' chunks are unchanged.
 * tsc-18: a test title over 120 characters is cut after its last whole word and ends with `…` (`testTitleName`),
 * no longer mid-word; nested tests' `enclosing` is joined with ` > `.
 * tsc-19: in Python, a syntax error that runs past a later `def`/`class`/decorator at column 0 (an unclosed
 * bracket) has its rows before that row left out of the parse and carved into chunks like long rows, so the
 * definitions after it keep their chunks and symbols; files that parse cleanly are unchanged.
 * tsc-20: a long line's chunk (over 2000 characters) stays alone: no fragment joins it nor it a neighbour, so
 * code next to a data line is no longer dropped with it; a group of small items never spans a long line (nor
 * a row a Python parse left out), so the chunk after one is named after its own first definition. Other
 * files are unchanged.
 */
export const CHUNKER_VERSION = 'tsc-20';
