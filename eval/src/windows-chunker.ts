import { sha256, type Chunk } from '@monorag/shared';
import { estimateTokens, type Chunker, type TokenCounter } from '@monorag/chunker';

/** Options of {@link createWindowsChunker}. */
export interface WindowsChunkerOptions {
  /** The syntax-aware chunker; Markdown files are delegated to it so only code chunking differs. */
  base: Chunker;
  /** Largest window (header + content) in embedding-model tokens; default 256. */
  maxTokens?: number;
  /** Token counter, the same as the syntax chunker's; default `estimateTokens`. */
  countTokens?: TokenCounter;
}

/**
 * The ablation baseline "line windows": every non-Markdown file is cut into consecutive windows of
 * at most `maxTokens` estimated tokens (the same budget the syntax chunker uses), preferring a cut
 * after a blank line in the window's second half, with no symbol and a path-only header. Markdown
 * keeps its heading sections (delegated to `base`), so the ablation isolates code chunking.
 * Ranges are 1-based inclusive; every non-blank line lies in exactly one window.
 */
export function createWindowsChunker({ base, maxTokens = 256, countTokens = estimateTokens }: WindowsChunkerOptions): Chunker {
  const chunk = (path: string, text: string): Chunk[] => {
    const language = base.languageOf(path, text);
    if (language === 'markdown') return base.chunk(path, text);
    const lines = text.split('\n');
    const budget = Math.max(1, maxTokens - 2 - countTokens(path));
    const chunks: Chunk[] = [];
    let row = 0;
    while (row < lines.length) {
      while (row < lines.length && lines[row]!.trim() === '') row++;
      if (row >= lines.length) break;
      let used = 0;
      let stop = row;
      let cut = -1;
      while (stop < lines.length) {
        const tokens = countTokens(lines[stop]!);
        if (stop > row && used + tokens > budget) break;
        used += tokens;
        if (stop > row && lines[stop]!.trim() === '') cut = stop;
        stop++;
      }
      let last = stop - 1;
      if (stop < lines.length && cut > row + (stop - row) / 2) last = cut - 1;
      while (last > row && lines[last]!.trim() === '') last--;
      const content = lines.slice(row, last + 1).join('\n');
      const contentHash = sha256(`${path}\n${content}`);
      chunks.push({
        id: sha256(`${path}:${row + 1}:${last + 1}:${contentHash}`).slice(0, 32),
        path,
        language,
        startLine: row + 1,
        endLine: last + 1,
        kind: 'window',
        symbol: null,
        scopes: [],
        header: path,
        content,
        contentHash,
      });
      row = last + 1;
    }
    return chunks;
  };
  return {
    version: `${base.version}+eval-windows`,
    languageOf: (path, text) => base.languageOf(path, text),
    chunk,
    // Everything but the chunks (language, symbols, ...) comes from the syntax chunker.
    analyse: (path, text) => ({ ...base.analyse(path, text), chunks: chunk(path, text), fallback: null }),
    unavailableGrammars: base.unavailableGrammars,
  };
}
