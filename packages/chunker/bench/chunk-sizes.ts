// Writes every chunk of the eval corpora as JSON lines `{"language","text"}` (text = header + '\n' +
// content, what is embedded) to the file named by the first argument, for chunk-sizes.py to count with
// the real tokenizer: `pnpm --silent tsx --conditions=monorag-source packages/chunker/bench/chunk-sizes.ts /tmp/chunks.jsonl [--estimate]`.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createChunker, createWordPieceCounter } from '@monorag/chunker';
import { bundledVocabulary } from '../src/bundled-tokenizer.js';

const out = process.argv[2];
if (!out) throw new Error('Give the output file, e.g. /tmp/chunks.jsonl');
const corpora = join(new URL('.', import.meta.url).pathname, '../../../eval/.corpora');
// Chunk as `monorag index` does with the bundled model: exact word pieces from its vocabulary (`--estimate`: estimateTokens).
const vocab = process.argv.includes('--estimate') ? null : bundledVocabulary();
const chunker = await createChunker(vocab ? { countTokens: createWordPieceCounter(vocab) } : {});
const lines: string[] = [];
for (const corpus of readdirSync(corpora).filter((name) => statSync(join(corpora, name)).isDirectory() && name !== 'tarballs')) {
  for (const rel of readdirSync(join(corpora, corpus), { recursive: true }) as string[]) {
    const path = join(corpora, corpus, rel);
    if (rel.includes('node_modules') || !statSync(path).isFile() || statSync(path).size > 1 << 20) continue;
    const text = readFileSync(path, 'utf8');
    if (text.includes('\0')) continue;
    for (const chunk of chunker.chunk(rel, text)) {
      lines.push(JSON.stringify({ language: chunk.language, text: `${chunk.header}\n${chunk.content}` }));
    }
  }
}
writeFileSync(out, `${lines.join('\n')}\n`);
process.stdout.write(`${lines.length} chunks written to ${out} (token counter: ${vocab ? 'WordPiece' : 'estimateTokens'})\n`);
