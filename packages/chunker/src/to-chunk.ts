import { sha256, type Chunk } from '@monorag/shared';
import { buildHeader } from './build-header.js';
import type { LineIndex } from './line-index.js';
import type { Piece } from './piece.js';

/**
 * The `Chunk` for a normalised piece: 1-based lines, exact content, header,
 * contentHash = sha256(header + '\n' + content) and id = first 32 hex chars of
 * sha256(`${path}:${startLine}:${endLine}:${contentHash}`).
 */
export function toChunk(path: string, language: string, lines: LineIndex, piece: Piece): Chunk {
  const startLine = piece.start + 1;
  const endLine = piece.end + 1;
  const header = buildHeader(path, piece.scopes, piece.signature);
  const content = lines.text(piece.start, piece.end);
  const contentHash = sha256(header + '\n' + content);
  return {
    id: sha256(`${path}:${startLine}:${endLine}:${contentHash}`).slice(0, 32),
    path,
    language,
    startLine,
    endLine,
    kind: piece.kind,
    symbol: piece.symbol,
    scopes: [...piece.scopes],
    header,
    content,
    contentHash,
  };
}
