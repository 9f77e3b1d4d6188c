import { sha256, type Chunk } from '@monorag/shared';
import type { Chunker } from '@monorag/chunker';

/**
 * The ablation "no path in the embedded header": the syntax chunker's chunks with the first header
 * line (the file path) removed, so neither the embedding nor the BM25 body sees the path (the BM25
 * `path` field still does). contentHash and id are recomputed as the chunker computes them
 * (contentHash = sha256(header + '\n' + content)). Answers whether a rename must re-embed.
 */
export function createPathlessChunker(base: Chunker): Chunker {
  const strip = (chunk: Chunk): Chunk => {
    const newline = chunk.header.indexOf('\n');
    const header = newline === -1 ? '' : chunk.header.slice(newline + 1);
    const contentHash = sha256(`${header}\n${chunk.content}`);
    return {
      ...chunk,
      header,
      contentHash,
      id: sha256(`${chunk.path}:${chunk.startLine}:${chunk.endLine}:${contentHash}`).slice(0, 32),
    };
  };
  return {
    version: `${base.version}+eval-pathless`,
    languageOf: (path, text) => base.languageOf(path, text),
    chunk: (path, text) => base.chunk(path, text).map(strip),
    analyse: (path, text) => {
      const analysis = base.analyse(path, text);
      return { ...analysis, chunks: analysis.chunks.map(strip) };
    },
    unavailableGrammars: base.unavailableGrammars,
  };
}
