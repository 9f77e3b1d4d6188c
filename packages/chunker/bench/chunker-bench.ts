// `pnpm bench:chunker [--estimate] [root...]`: chunker throughput (MB/s) per language on real code found on this
// machine (the eval corpora, then other roots), up to 2 MB per language; prints a table on stdout.
// Languages with no real code found here are measured on the test fixtures and marked so.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createChunker, createWordPieceCounter, languageOf } from '@monorag/chunker';
import { bundledVocabulary } from '../src/bundled-tokenizer.js';

const PER_LANGUAGE_BYTES = 2 * 1024 * 1024;
const MAX_FILE_BYTES = 512 * 1024;
const MAX_ENTRIES = 300_000;
const here = new URL('.', import.meta.url).pathname;
const defaults = [
  join(here, '../../../eval/.corpora'),
  '/usr/share/doc',
  '/usr/lib/google-cloud-sdk',
  '/root/.pyenv/versions',
  '/root/.pyenv/src',
  '/usr/include',
  join(here, '../../../node_modules/.pnpm'),
  '/etc',
];
const args = process.argv.slice(2).filter((arg) => arg !== '--estimate');
const roots = args.length > 0 ? args : defaults;

const samples = new Map<string, { path: string; text: string }[]>();
const bytes = new Map<string, number>();
let entries = 0;
function add(path: string, rel: string, size: number): void {
  if (size === 0 || size > MAX_FILE_BYTES) return;
  const head = readFileSync(path, 'utf8');
  if (head.includes('\0')) return;
  const language = languageOf(rel, head);
  if (language === 'text' || (bytes.get(language) ?? 0) >= PER_LANGUAGE_BYTES) return;
  bytes.set(language, (bytes.get(language) ?? 0) + head.length);
  samples.set(language, [...(samples.get(language) ?? []), { path: rel, text: head }]);
}
function walk(root: string): void {
  const stack = [root];
  while (stack.length > 0 && entries < MAX_ENTRIES) {
    const dir = stack.pop() as string;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue; // unreadable directory: nothing to measure there
    }
    for (const name of names) {
      if (++entries > MAX_ENTRIES) return;
      const path = join(dir, name);
      try {
        const info = statSync(path);
        if (info.isDirectory()) stack.push(path);
        else if (info.isFile()) add(path, path.slice(root.length + 1), info.size);
      } catch {
        continue; // vanished or unreadable file
      }
    }
  }
}
for (const root of roots) walk(root);
const fixtureDir = join(here, '../test/fixtures');
const fromFixtures = new Set<string>();
for (const name of readdirSync(fixtureDir)) {
  const rel = name.replace(/\.txt$/, '');
  const text = readFileSync(join(fixtureDir, name), 'utf8');
  const language = languageOf(rel, text);
  if (!samples.has(language) || fromFixtures.has(language)) {
    fromFixtures.add(language);
    samples.set(language, [...(samples.get(language) ?? []), { path: rel, text }]);
  }
}

// Count tokens as `monorag index` does with the bundled model: exact word pieces (`--estimate`: estimateTokens).
const vocab = process.argv.includes('--estimate') ? null : bundledVocabulary();
const chunker = await createChunker(vocab ? { countTokens: createWordPieceCounter(vocab) } : {});
process.stdout.write(`token counter: ${vocab ? 'WordPiece (bundled all-MiniLM-L6-v2 vocabulary)' : 'estimateTokens'}\n`);
const rows: string[][] = [];
for (const [language, files] of [...samples.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  const total = files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
  // Repeat small samples so each timing covers at least ~1 MB of work.
  const rounds = Math.max(1, Math.ceil((1024 * 1024) / total));
  let chunks = 0;
  let symbols = 0;
  let fallbacks = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const file of files) {
      const analysis = chunker.analyse(file.path, file.text);
      if (round === 0) {
        chunks += analysis.chunks.length;
        symbols += analysis.symbols.length;
        if (analysis.fallback !== null) fallbacks++;
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const mbPerSecond = (total * rounds) / 1024 / 1024 / seconds;
  rows.push([
    language,
    fromFixtures.has(language) ? 'fixtures' : 'real',
    String(files.length),
    (total / 1024).toFixed(0),
    mbPerSecond.toFixed(2),
    String(chunks),
    String(symbols),
    String(fallbacks),
  ]);
}
const header = ['language', 'source', 'files', 'KiB', 'MB/s', 'chunks', 'symbols', 'fallback files'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
const line = (cells: string[]): string => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
process.stdout.write(`${[line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')}\n`);
