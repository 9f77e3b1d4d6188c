import { sha256, type Chunk } from '@monorag/shared';
import { buildHeader } from './build-header.js';
import type { LineIndex } from './line-index.js';
import type { Piece } from './piece.js';

/**
 * Where the rows of a planned text lie in the file when that text is not the file itself (the decoded
 * cell sources of a notebook): for a row of the planned text (0-based), the 0-based rows of the file
 * holding its first and its last character.
 */
export interface FileRows {
  first(row: number): number;
  last(row: number): number;
}

/**
 * The `Chunk` for a normalised piece: 1-based lines, exact content, header,
 * contentHash = sha256(header + '\n' + content) and id = first 32 hex chars of
 * sha256(`${path}:${startLine}:${endLine}:${contentHash}`).
 * @param lines the text the piece was planned on; `content` is its rows `piece.start..piece.end`
 * @param fileRows where those rows are in the file, when `lines` is not the file itself; then
 *   `startLine` is `fileRows.first(piece.start) + 1` and `endLine` `fileRows.last(piece.end) + 1`.
 *   Without it, `startLine..endLine` are the piece's own rows and `content` is exactly those lines of the file.
 */
export function toChunk(path: string, language: string, lines: LineIndex, piece: Piece, fileRows?: FileRows): Chunk {
  const startLine = (fileRows ? fileRows.first(piece.start) : piece.start) + 1;
  const endLine = (fileRows ? fileRows.last(piece.end) : piece.end) + 1;
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
