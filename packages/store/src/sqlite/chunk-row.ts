import type { Chunk, ChunkKind, FileRecord, SymbolHit, SymbolRole } from '@monorag/shared';

/** Columns of `chunks` selected by every query that returns chunks, prefixed by `alias.`. */
export function chunkColumns(alias: string): string {
  return ['id', 'path', 'language', 'start_line', 'end_line', 'kind', 'symbol', 'scopes', 'header', 'content', 'content_hash']
    .map((column) => `${alias}.${column}`)
    .join(', ');
}

/** A `chunks` row as better-sqlite3 returns it. */
export interface ChunkRow {
  id: string;
  path: string;
  language: string;
  start_line: number;
  end_line: number;
  kind: string;
  symbol: string | null;
  scopes: string;
  header: string;
  content: string;
  content_hash: string;
}

/** The Chunk of a row; `scopes` is stored as a JSON array. */
export function rowToChunk(row: ChunkRow): Chunk {
  return {
    id: row.id,
    path: row.path,
    language: row.language,
    startLine: row.start_line,
    endLine: row.end_line,
    kind: row.kind as ChunkKind,
    symbol: row.symbol,
    scopes: JSON.parse(row.scopes) as string[],
    header: row.header,
    content: row.content,
    contentHash: row.content_hash,
  };
}

/** A `files` row as better-sqlite3 returns it. */
export interface FileRow {
  path: string;
  content_hash: string;
  size: number;
  language: string;
  chunk_count: number;
  indexed_at: number;
  fallback: string | null;
  embedded_from: string | null;
  secrets: string | null;
}

/** The FileRecord of a manifest row; `fallback`, `embeddedFrom` and `secrets` are present only when the row has them. */
export function rowToFile(row: FileRow): FileRecord {
  const file: FileRecord = {
    path: row.path,
    contentHash: row.content_hash,
    size: row.size,
    language: row.language,
    chunkCount: row.chunk_count,
    indexedAt: row.indexed_at,
  };
  if (row.fallback !== null && row.fallback !== undefined) file.fallback = row.fallback;
  if (row.embedded_from !== null && row.embedded_from !== undefined) file.embeddedFrom = row.embedded_from;
  if (row.secrets !== null && row.secrets !== undefined) file.secrets = JSON.parse(row.secrets) as Record<string, number>;
  return file;
}

/** A `symbols` row as better-sqlite3 returns it. */
export interface SymbolRow {
  path: string;
  role: string;
  name: string;
  kind: string;
  start_line: number;
  end_line: number;
  enclosing: string | null;
}

/** The SymbolHit of a `symbols` row. */
export function rowToSymbol(row: SymbolRow): SymbolHit {
  return {
    path: row.path,
    name: row.name,
    kind: row.kind,
    role: row.role as SymbolRole,
    startLine: row.start_line,
    endLine: row.end_line,
    enclosing: row.enclosing,
  };
}
