import { sha256, type Chunk, type ChunkKind, type FileRecord } from '@monorag/shared';

/**
 * A deterministic pseudo-random unit vector of `dim` components for `seed` (mulberry32 generator,
 * components uniform in [-1, 1), then L2-normalised). Stands in for an embedding model in tests.
 */
export function deterministicVector(seed: number, dim: number): Float32Array {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const vector = new Float32Array(dim);
  for (let i = 0; i < dim; i++) vector[i] = next() * 2 - 1;
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

/** Cosine similarity of two vectors, computed in double precision. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return dot / Math.sqrt(na * nb);
}

/** Fields of a test chunk; everything but path and startLine has a default. */
export interface TestChunkInput {
  path: string;
  startLine: number;
  endLine?: number;
  language?: string;
  kind?: ChunkKind;
  symbol?: string | null;
  scopes?: string[];
  content?: string;
}

/** A well-formed Chunk (id and contentHash derived as the chunker does) for tests. */
export function testChunk({
  path,
  startLine,
  endLine = startLine + 2,
  language = 'typescript',
  kind = 'function',
  symbol = null,
  scopes = [],
  content = `// ${path}:${startLine}`,
}: TestChunkInput): Chunk {
  const header = [path, ...scopes, symbol ?? ''].filter(Boolean).join('\n');
  const contentHash = sha256(`${header}\n${content}`);
  return {
    id: sha256(`${path}\n${startLine}\n${endLine}\n${contentHash}`),
    path,
    language,
    startLine,
    endLine,
    kind,
    symbol,
    scopes,
    header,
    content,
    contentHash,
  };
}

/** The manifest record matching `chunks` of `path`. */
export function testFile(path: string, chunks: Chunk[], language = 'typescript'): FileRecord {
  return {
    path,
    contentHash: sha256(chunks.map((chunk) => chunk.content).join('\n')),
    size: chunks.reduce((sum, chunk) => sum + chunk.content.length, 0),
    language,
    chunkCount: chunks.length,
    indexedAt: 1_700_000_000_000,
  };
}
