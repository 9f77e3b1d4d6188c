import { ErrorCode, MonoragError, errorMessage, type Chunk, type CodeSymbol } from '@monorag/shared';
import { Query, type Parser } from 'web-tree-sitter';
import type { Chunker, ChunkerOptions, FallbackReason, FileAnalysis } from './chunker.js';
import { embeddedPieces, maskToBlock, scriptBlocks } from './embedded-pieces.js';
import { estimateTokens } from './estimate-tokens.js';
import { extractSymbols } from './extract-symbols.js';
import { REFERENCE_QUERIES } from './languages/reference-queries.js';
import { keyPieces } from './key-pieces.js';
import { LANGUAGES, findLanguage, languageById } from './languages/registry.js';
import type { LanguageSpec } from './languages/language-spec.js';
import { createLineIndex } from './line-index.js';
import { loadGrammar } from './load-grammar.js';
import { blankRows, carveRows, longRows } from './long-lines.js';
import { looksMinified } from './looks-minified.js';
import { markdownPieces } from './markdown-pieces.js';
import { mergeFragments } from './merge-fragments.js';
import { notebookChunks } from './notebook-chunks.js';
import { normalisePieces } from './normalise-pieces.js';
import { dropDataChunks } from './drop-data-chunks.js';
import { parseWithBudget } from './parse-with-budget.js';
import { readNotebook } from './read-notebook.js';
import type { Piece } from './piece.js';
import { createPlanContext, type PlanContext } from './plan-context.js';
import { rstPieces } from './rst-pieces.js';
import { swallowingRows } from './swallowing-rows.js';
import { syntaxPieces } from './syntax-pieces.js';
import { toChunk } from './to-chunk.js';
import { CHUNKER_VERSION } from './version.js';
import { dropPragmaChunks } from './drop-pragma-chunks.js';
import { windowPieces } from './window-pieces.js';
import { BERT_SPECIAL_TOKENS } from './wordpiece.js';

/** Default `maxTokens`: all-MiniLM-L6-v2's max_seq_length. */
export const DEFAULT_MAX_TOKENS = 256;
/** Parses of a file after its first whose swallowing errors are left out, one after another, before the parser's own recovery takes the rest. */
const MAX_RESYNC_ROUNDS = 3;
/** Default `parseTimeoutMs`. */
export const DEFAULT_PARSE_TIMEOUT_MS = 1500;

interface Plan {
  pieces: Piece[];
  fallback: FallbackReason | null;
  symbols?: CodeSymbol[];
  /** Chunks made by the planner itself, used instead of `pieces` (a notebook's: their text is not the file's lines). */
  chunks?: Chunk[];
}

/**
 * Creates a chunker. Loads the tree-sitter runtime and the grammars of every syntax language of the
 * registry (TypeScript, Python, Go, Rust, Java, ...) once; afterwards `chunk` is pure and synchronous.
 * A grammar that fails to load is recorded in `unavailableGrammars` and its language is chunked by windows.
 * @throws MonoragError INVALID_ARGUMENT for a `maxTokens` or `parseTimeoutMs` that is not a positive number,
 *   or a `specialTokens` outside 0..maxTokens - 1
 */
export async function createChunker({
  maxTokens = DEFAULT_MAX_TOKENS,
  countTokens = estimateTokens,
  specialTokens = BERT_SPECIAL_TOKENS,
  parseTimeoutMs = DEFAULT_PARSE_TIMEOUT_MS,
  counterId = 'estimate',
}: ChunkerOptions = {}): Promise<Chunker> {
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `maxTokens must be a positive integer, got ${maxTokens}.`);
  }
  if (!Number.isInteger(specialTokens) || specialTokens < 0 || specialTokens >= maxTokens) {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `specialTokens must be an integer from 0 to maxTokens - 1 (${maxTokens - 1}), got ${specialTokens}.`,
    );
  }
  /** What header + content may take: the model's limit less its special tokens. */
  const budget = maxTokens - specialTokens;
  if (!(parseTimeoutMs > 0)) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `parseTimeoutMs must be a positive number, got ${parseTimeoutMs}.`);
  }
  const parsers = new Map<string, Parser>();
  const queries = new Map<string, Query>();
  const unavailableGrammars = new Map<string, string>();
  for (const spec of LANGUAGES) {
    if (!spec.syntax) continue;
    try {
      parsers.set(spec.id, await loadGrammar(spec.syntax.grammar));
    } catch (error) {
      // One broken grammar must not stop the others: its language is chunked by windows, and says why.
      unavailableGrammars.set(spec.syntax.grammar, errorMessage(error));
      continue;
    }
    const source = REFERENCE_QUERIES[spec.id];
    const language = parsers.get(spec.id)?.language;
    if (source === undefined || !language) continue;
    try {
      queries.set(spec.id, new Query(language, source));
    } catch (error) {
      // A query that does not match its grammar build only costs that language its references.
      unavailableGrammars.set(`${spec.syntax.grammar} (reference query)`, errorMessage(error));
    }
  }

  const allWindows = (ctx: PlanContext): Piece[] => windowPieces(ctx, 0, ctx.lines.lines.length - 1);
  const windowsBecause = (ctx: PlanContext, fallback: FallbackReason): Plan => ({ pieces: allWindows(ctx), fallback });

  /**
   * Syntax pieces and symbols of `text` in language `spec`, or the reason there are none; with the rows
   * of syntax errors that swallow later definitions (`swallowingRows`, for a grammar with `resync` rows
   * whose tree has an error; else []), for the caller to leave out of another parse. `cutRows` are the
   * rows blank in `text` that `carveRows` cuts out of the pieces afterwards (`parsedView`'s `long`).
   */
  const syntaxPlan = (
    spec: LanguageSpec,
    ctx: PlanContext,
    text: string,
    cutRows: readonly number[],
  ): (Required<Omit<Plan, 'chunks'>> & { swallowed: number[] }) | FallbackReason => {
    const parser = parsers.get(spec.id);
    if (!spec.syntax) return 'no-grammar';
    if (!parser) return 'grammar-unavailable';
    const tree = parseWithBudget(parser, text, parseTimeoutMs);
    if (tree === null) return 'parse-timeout';
    try {
      const pieces = syntaxPieces(ctx, spec.syntax, tree.rootNode, cutRows);
      const swallowed = spec.syntax.resync ? swallowingRows(tree, ctx.lines.lines, spec.syntax.resync) : [];
      return { pieces, fallback: null, symbols: extractSymbols(tree, spec.syntax, queries.get(spec.id) ?? null), swallowed };
    } finally {
      tree.delete();
    }
  };

  /** Whether `text` parses in `spec`'s grammar with no error or missing node; true without a grammar, false on a parse timeout. */
  const parsesCleanly = (spec: LanguageSpec, text: string): boolean => {
    const parser = parsers.get(spec.id);
    if (!spec.syntax || !parser) return true;
    const tree = parseWithBudget(parser, text, parseTimeoutMs);
    if (tree === null) return false;
    try {
      return !tree.rootNode.hasError;
    } finally {
      tree.delete();
    }
  };

  /**
   * What the parser and the syntax planner see of a file that is not minified: its rows, with the rows
   * over `MAX_PARSED_LINE_CHARS` (`long`) blanked, so that one data line of 100,000 characters costs
   * neither parse time nor the syntax chunks and symbols of the file's other lines; `carveRows` then
   * gives each long row a chunk of its own. `ctx` and `text` themselves when there are none.
   */
  const parsedView = (ctx: PlanContext, text: string, extra: readonly number[] = []): { ctx: PlanContext; text: string; long: number[] } => {
    const long = extra.length === 0 ? longRows(ctx.lines.lines) : [...new Set([...longRows(ctx.lines.lines), ...extra])].sort((a, b) => a - b);
    if (long.length === 0) return { ctx, text, long };
    const blanked = blankRows(ctx.lines.lines, long).join('\n');
    return { ctx: createPlanContext(ctx.path, createLineIndex(blanked, countTokens), ctx.maxTokens, countTokens), text: blanked, long };
  };

  const plan = (spec: LanguageSpec, ctx: PlanContext, text: string): Plan => {
    switch (spec.strategy) {
      case 'markdown':
        return { pieces: markdownPieces(ctx), fallback: null };
      case 'rst':
        return { pieces: rstPieces(ctx), fallback: null };
      case 'keys':
        return { pieces: keyPieces(ctx, spec.keys ?? 'json', text), fallback: null };
      case 'window':
        return windowsBecause(ctx, 'no-grammar');
      case 'notebook': {
        const notebook = readNotebook(text);
        if (typeof notebook === 'string') return windowsBecause(ctx, notebook);
        // Each run of code cells is planned like a file of the kernel's language, Markdown cells like a Markdown file.
        return { pieces: [], ...notebookChunks(ctx.path, spec.id, notebook, { plan, parsesCleanly, maxTokens: budget, countTokens, rowLengths: ctx.lines.lines.map((line) => line.length) }) };
      }
      case 'embedded': {
        if (looksMinified(ctx.lines.lines)) return windowsBecause(ctx, 'minified');
        const parsed = parsedView(ctx, text);
        const blocks = scriptBlocks(ctx.lines.lines);
        const scripts: Piece[] = [];
        const symbols: CodeSymbol[] = [];
        for (const block of blocks) {
          const planned = syntaxPlan(languageById(block.language), parsed.ctx, maskToBlock(parsed.ctx.lines.lines, block), parsed.long);
          if (typeof planned === 'string') return windowsBecause(ctx, planned);
          const long = parsed.long.filter((row) => row >= block.start && row <= block.end);
          scripts.push(...carveRows(planned.pieces, long));
          symbols.push(...planned.symbols);
        }
        return { pieces: embeddedPieces(ctx, blocks, scripts), fallback: null, symbols };
      }
      case 'syntax': {
        if (looksMinified(ctx.lines.lines)) return windowsBecause(ctx, 'minified');
        let parsed = parsedView(ctx, text);
        let planned = syntaxPlan(spec, parsed.ctx, parsed.text, parsed.long);
        // A syntax error that swallows the definitions after it (Python's unclosed bracket): its rows are left
        // out of another parse, as long rows are, a few rounds (one fix can reveal the next error).
        const extra: number[] = [];
        for (let round = 0; round < MAX_RESYNC_ROUNDS && typeof planned !== 'string' && planned.swallowed.length > 0; round++) {
          extra.push(...planned.swallowed);
          const view = parsedView(ctx, text, extra);
          const again = syntaxPlan(spec, view.ctx, view.text, view.long);
          if (typeof again === 'string') break;
          parsed = view;
          planned = again;
        }
        if (typeof planned === 'string') return windowsBecause(ctx, planned);
        const normalised = normalisePieces(planned.pieces, parsed.ctx.lines);
        const pieces = parsed.long.length === 0 ? normalised : normalisePieces(carveRows(normalised, parsed.long), ctx.lines);
        // Fragments under a quarter of the budget (the planner's own measure of a small piece) join a neighbour.
        return { fallback: planned.fallback, symbols: planned.symbols, pieces: mergeFragments(ctx, pieces, Math.floor(ctx.maxTokens / 4)) };
      }
    }
  };

  const analyse = (path: string, text: string): FileAnalysis => {
    const spec = findLanguage(path, text);
    const lines = createLineIndex(text, countTokens);
    const ctx = createPlanContext(path, lines, budget, countTokens);
    let planned: Plan;
    try {
      planned = plan(spec, ctx, text);
    } catch {
      // Never throw on content: a file the planner cannot handle is chunked by windows instead, and says so.
      planned = windowsBecause(ctx, 'planner-error');
    }
    // The pieces of an inlined base64/hex blob (a WebAssembly module, an image), and a trailing
    // source-map pragma left alone, are no chunks.
    const chunks: Chunk[] =
      planned.chunks ?? dropPragmaChunks(dropDataChunks(normalisePieces(planned.pieces, lines).map((piece) => toChunk(path, spec.id, lines, piece))));
    return { language: spec.id, chunks, fallback: planned.fallback, symbols: planned.symbols ?? [] };
  };

  return {
    version: `${CHUNKER_VERSION}+${counterId}`,
    unavailableGrammars,
    languageOf: (path, text) => findLanguage(path, text).id,
    chunk: (path, text) => analyse(path, text).chunks,
    analyse,
  };
}
