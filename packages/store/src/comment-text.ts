import { isNotebookProse, type Chunk } from '@monorag/shared';

/** Comment syntaxes, by the chunker's language ids. Languages not listed (prose, data) give no comments. */
const SLASH = /\/\*[\s\S]*?(?:\*\/|$)|(?<![:\w/])\/\/[^\n]*/g;
const HASH = /(?<![\w$&'"])#(?![!{[])[^\n]*/g;
const PYTHON = /"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|(?<![\w'"])#[^\n]*/g;
const PHP = /\/\*[\s\S]*?(?:\*\/|$)|(?<![:\w/])\/\/[^\n]*|(?<![\w$&'"])#(?!\[)[^\n]*/g;
const LUA = /--\[\[[\s\S]*?(?:\]\]|$)|--[^\n]*/g;

const SYNTAX: Readonly<Record<string, RegExp>> = {
  javascript: SLASH, typescript: SLASH, tsx: SLASH, java: SLASH, csharp: SLASH, kotlin: SLASH,
  swift: SLASH, scala: SLASH, dart: SLASH, go: SLASH, rust: SLASH, c: SLASH, cpp: SLASH,
  python: PYTHON, ruby: HASH, bash: HASH, elixir: HASH, php: PHP, lua: LUA,
  // Jupyter notebooks: see commentText for which of their chunks are code.
  jupyter: PYTHON,
};

/**
 * The comments (and Python docstrings) of a code chunk's `content`, joined by newlines, with their
 * markers (`//`, `#`, `*`) left in place (the term analyzer drops punctuation). Found by per-language
 * patterns, not a parser: a `//` inside a string literal may read as a comment (URLs are excluded),
 * which only adds a few terms. Returns '' for languages without a known comment syntax, prose
 * (Markdown, reStructuredText) and data files.
 *
 * Jupyter notebooks (language `jupyter`): a chunk of code cells is read with the Python rules (`#`
 * comments, `"""`/`'''` docstrings), whatever the notebook's kernel, since a chunk does not record its
 * kernel's language and Python is Jupyter's default kernel (R, Julia and bash kernels write `#` comments
 * too; Julia's docstrings are `"""` strings). A chunk of Markdown cells (kind `section`, which no code
 * planner gives) is prose and gives ''. Raw cells are chunked as windows, as code cells may be, and
 * cannot be told apart from them: their `#` lines read as comments.
 */
export function commentText(chunk: Pick<Chunk, 'content' | 'language' | 'kind'>): string {
  const pattern = SYNTAX[chunk.language];
  if (!pattern || isNotebookProse(chunk)) return '';
  return [...chunk.content.matchAll(pattern)].map((m) => m[0]).join('\n');
}
