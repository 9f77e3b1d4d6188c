import type { TokenCounter } from './chunker.js';
import { buildHeader } from './build-header.js';
import type { LineIndex } from './line-index.js';

/** What every planner needs for one file. */
export interface PlanContext {
  readonly path: string;
  readonly lines: LineIndex;
  /** Largest chunk, header + content, in tokens (the model's limit less its special tokens). */
  readonly maxTokens: number;
  /** Tokens of the header for these scopes and signature. */
  headerTokens(scopes: readonly string[], signature: string | null): number;
  /** Tokens of a chunk of rows `start..end` (0-based inclusive) with that header. */
  pieceTokens(start: number, end: number, scopes: readonly string[], signature: string | null): number;
}

/** A `PlanContext` for one file; header token counts are memoised per header. */
export function createPlanContext(path: string, lines: LineIndex, maxTokens: number, countTokens: TokenCounter): PlanContext {
  const memo = new Map<string, number>();
  const headerTokens = (scopes: readonly string[], signature: string | null): number => {
    const header = buildHeader(path, scopes, signature);
    let tokens = memo.get(header);
    if (tokens === undefined) {
      tokens = countTokens(header);
      memo.set(header, tokens);
    }
    return tokens;
  };
  return {
    path,
    lines,
    maxTokens,
    headerTokens,
    pieceTokens: (start, end, scopes, signature) => headerTokens(scopes, signature) + lines.tokens(start, end),
  };
}
