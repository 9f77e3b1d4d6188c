import { ErrorCode, MonoragError, type Chunk } from '@monorag/shared';
import type { Parser } from 'web-tree-sitter';
import type { Chunker, ChunkerOptions } from './chunker.js';
import { estimateTokens } from './estimate-tokens.js';
import { LANGUAGES, findLanguage } from './languages/registry.js';
import type { LanguageSpec } from './languages/language-spec.js';
import { createLineIndex } from './line-index.js';
import { loadGrammar } from './load-grammar.js';
import { looksMinified } from './looks-minified.js';
import { markdownPieces } from './markdown-pieces.js';
import { normalisePieces } from './normalise-pieces.js';
import { parseWithBudget } from './parse-with-budget.js';
import type { Piece } from './piece.js';
import { createPlanContext, type PlanContext } from './plan-context.js';
import { syntaxPieces } from './syntax-pieces.js';
import { toChunk } from './to-chunk.js';
import { CHUNKER_VERSION } from './version.js';
import { windowPieces } from './window-pieces.js';

/** Default `maxTokens`: all-MiniLM-L6-v2's max_seq_length. */
export const DEFAULT_MAX_TOKENS = 256;
/** Default `parseTimeoutMs`. */
export const DEFAULT_PARSE_TIMEOUT_MS = 1500;

/**
 * Creates a chunker. Loads the tree-sitter runtime and the grammars of every syntax language of the
 * registry (TypeScript, TSX, JavaScript, Python, ...) once; afterwards `chunk` is pure and synchronous.
 * @throws MonoragError INVALID_ARGUMENT for a `maxTokens` or `parseTimeoutMs` that is not a positive number
 * @throws MonoragError FILE_UNREADABLE when a grammar file cannot be loaded
 */
export async function createChunker({
  maxTokens = DEFAULT_MAX_TOKENS,
  countTokens = estimateTokens,
  parseTimeoutMs = DEFAULT_PARSE_TIMEOUT_MS,
}: ChunkerOptions = {}): Promise<Chunker> {
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `maxTokens must be a positive integer, got ${maxTokens}.`);
  }
  if (!(parseTimeoutMs > 0)) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `parseTimeoutMs must be a positive number, got ${parseTimeoutMs}.`);
  }
  const parsers = new Map<string, Parser>();
  for (const spec of LANGUAGES) {
    if (spec.syntax) parsers.set(spec.id, await loadGrammar(spec.syntax.grammar));
  }

  const allWindows = (ctx: PlanContext): Piece[] => windowPieces(ctx, 0, ctx.lines.lines.length - 1);

  const plan = (spec: LanguageSpec, ctx: PlanContext, text: string): Piece[] => {
    if (spec.strategy === 'markdown') return markdownPieces(ctx);
    const parser = parsers.get(spec.id);
    if (!spec.syntax || !parser || looksMinified(ctx.lines.lines)) return allWindows(ctx);
    const tree = parseWithBudget(parser, text, parseTimeoutMs);
    if (tree === null) return allWindows(ctx);
    try {
      return syntaxPieces(ctx, spec.syntax, tree.rootNode);
    } finally {
      tree.delete();
    }
  };

  return {
    version: CHUNKER_VERSION,
    languageOf: (path, text) => findLanguage(path, text).id,
    chunk(path: string, text: string): Chunk[] {
      const spec = findLanguage(path, text);
      const lines = createLineIndex(text, countTokens);
      const ctx = createPlanContext(path, lines, maxTokens, countTokens);
      let pieces: Piece[];
      try {
        pieces = plan(spec, ctx, text);
      } catch {
        // Never throw on content: a file the planner cannot handle is chunked by windows instead.
        pieces = allWindows(ctx);
      }
      return normalisePieces(pieces, lines).map((piece) => toChunk(path, spec.id, lines, piece));
    },
  };
}
