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
};

/**
 * The comments (and Python docstrings) of a code chunk's `content`, joined by newlines, with their
 * markers (`//`, `#`, `*`) left in place (the term analyzer drops punctuation). Found by per-language
 * patterns, not a parser: a `//` inside a string literal may read as a comment (URLs are excluded),
 * which only adds a few terms. Returns '' for languages without a known comment syntax, prose
 * (Markdown, reStructuredText) and data files.
 */
export function commentText(content: string, language: string): string {
  const pattern = SYNTAX[language];
  if (!pattern) return '';
  return [...content.matchAll(pattern)].map((m) => m[0]).join('\n');
}
