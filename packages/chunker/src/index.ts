// Public surface of @monorag/chunker: named exports only.
export type { Chunker, ChunkerOptions, FallbackReason, FileAnalysis, TokenCounter } from './chunker.js';
export { createChunker, DEFAULT_MAX_TOKENS, DEFAULT_PARSE_TIMEOUT_MS } from './create-chunker.js';
export { estimateTokens } from './estimate-tokens.js';
export { MAX_AVERAGE_LINE_CHARS, MAX_PARSED_LINE_CHARS } from './looks-minified.js';
export { BERT_SPECIAL_TOKENS, MAX_INPUT_CHARS_PER_WORD, createWordPieceCounter } from './wordpiece.js';
export { CHUNKER_VERSION } from './version.js';
export { LANGUAGES, TEXT_LANGUAGE_ID, findLanguage, languageById, languageOf, shebangInterpreter } from './languages/registry.js';
export { LANGUAGE_IDS, resolveLanguageId } from './languages/resolve-language-id.js';
export { isNotebookPath, readNotebook, type Notebook, type NotebookCell, type NotebookProblem } from './read-notebook.js';
export type {
  BodyKind,
  ChunkStrategy,
  DefinitionKind,
  DefinitionRule,
  LanguageSpec,
  NamedRule,
  SyntaxSpec,
  TestCallSpec,
} from './languages/language-spec.js';
