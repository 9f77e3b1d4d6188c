import type { ChunkKind } from '@monorag/shared';

/** What a planned chunk is about; everything but its range. */
export interface PieceMeta {
  kind: ChunkKind;
  symbol: string | null;
  /** Enclosing scopes, outermost first. */
  scopes: string[];
  /** First line of the definition or the heading (trimmed, capped), or null. */
  signature: string | null;
}

/** A planned chunk: rows `start..end`, 0-based inclusive, plus its meta. */
export interface Piece extends PieceMeta {
  start: number;
  end: number;
  /**
   * Set by the syntax planner on a piece that holds whole definitions (a function, a class, a group of
   * small ones), as opposed to a fragment of a split one (a class head, a part of a body, a window):
   * `mergeFragments` never merges it away.
   */
  whole?: true;
}
