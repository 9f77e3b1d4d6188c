import { readdirSync, readFileSync } from 'node:fs';
import type { Chunk } from '@monorag/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunker } from './chunker.js';
import { createChunker } from './create-chunker.js';
import { isDataChunk } from './drop-data-chunks.js';
import { estimateTokens } from './estimate-tokens.js';
import { BERT_SPECIAL_TOKENS } from './wordpiece.js';

const fixturesDir = new URL('../test/fixtures/', import.meta.url);
const srcDir = new URL('./', import.meta.url);
const corpus: [string, string][] = [
  // Code fixtures are stored as `<name>.txt`; chunk them under their real extension.
  ...readdirSync(fixturesDir).map((name): [string, string] => [
    `fixtures/${name.replace(/\.txt$/, '')}`,
    readFileSync(new URL(name, fixturesDir), 'utf8'),
  ]),
  ...readdirSync(srcDir)
    .filter((name) => name.endsWith('.ts'))
    .map((name): [string, string] => [`src/${name}`, readFileSync(new URL(name, srcDir), 'utf8')]),
];

/** Checks the chunk contract; returns a description of the first violation or null. */
function violation(text: string, chunks: Chunk[]): string | null {
  const lines = text.split('\n');
  const owner = new Array<number>(lines.length).fill(-1);
  for (const [index, chunk] of chunks.entries()) {
    if (chunk.startLine < 1 || chunk.endLine > lines.length || chunk.startLine > chunk.endLine) return `range ${chunk.startLine}-${chunk.endLine}`;
    if (index > 0 && (chunks[index - 1] as Chunk).endLine >= chunk.startLine) return `overlap or unsorted at ${chunk.startLine}`;
    if (chunk.content !== lines.slice(chunk.startLine - 1, chunk.endLine).join('\n')) return `content of ${chunk.startLine}-${chunk.endLine}`;
    if (chunk.content.trim() === '') return `empty chunk ${chunk.startLine}`;
    for (let line = chunk.startLine; line <= chunk.endLine; line++) owner[line - 1] = index;
  }
  // A line of inlined base64/hex data is the one kind of line no chunk holds (isDataChunk).
  const uncovered = lines.findIndex((line, row) => line.trim() !== '' && owner[row] === -1 && !isDataChunk(line));
  return uncovered === -1 ? null : `line ${uncovered + 1} not covered`;
}

let chunkers: Chunker[];
beforeAll(async () => {
  chunkers = await Promise.all([16, 64, 256].map((maxTokens) => createChunker({ maxTokens })));
});

describe('chunk contract over fixtures and real sources', () => {
  it('covers every non-blank line exactly once, in order, within the file, at every size limit', () => {
    for (const chunker of chunkers) {
      for (const [path, text] of corpus) {
        expect(`${path}: ${violation(text, chunker.chunk(path, text))}`).toBe(`${path}: null`);
      }
    }
  });

  it('gives the same ids on a second run and from a second chunker', async () => {
    const other = await createChunker({ maxTokens: 64 });
    for (const [path, text] of corpus) {
      const ids = (chunker: Chunker): string[] => chunker.chunk(path, text).map((chunk) => chunk.id);
      expect(ids(other)).toEqual(ids(chunkers[1] as Chunker));
      expect(ids(other)).toEqual(ids(other));
    }
  });

  it('keeps every multi-line chunk within the limit, [CLS] and [SEP] included, at every size limit (only a single line may pass it)', () => {
    const tooBig = [16, 64, 256].flatMap((limit, i) =>
      corpus.flatMap(([path, text]) =>
        (chunkers[i] as Chunker)
          .chunk(path, text)
          .filter((c) => c.startLine < c.endLine && estimateTokens(`${c.header}\n${c.content}`) + BERT_SPECIAL_TOKENS > limit)
          .map((c) => `${limit}: ${path}:${c.startLine}-${c.endLine}`),
      ),
    );
    expect(tooBig).toEqual([]);
  });
});

describe('robustness', () => {
  it('chunks a 5 MB single-line JS string quickly without parsing', () => {
    // Words, not base64: a line of inlined data would be no chunk at all (next test).
    const text = `const blob = "${'x '.repeat(2_500_000)}";\n`;
    const started = performance.now();
    const chunks = (chunkers[2] as Chunker).chunk('dist/blob.js', text);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(chunks.map((c) => [c.startLine, c.endLine, c.kind])).toEqual([[1, 1, 'window']]);
  });

  it('makes no chunk of a 5 MB line of inlined base64 data, and keeps the code around it', () => {
    const text = `const wasm = Buffer.from(\n  '${'AGFzbQEAAAAB'.repeat(400_000)}',\n  'base64');\nexport function instantiate(imports) {\n  return new WebAssembly.Instance(new WebAssembly.Module(wasm), imports);\n}\n`;
    const chunks = (chunkers[2] as Chunker).chunk('lib/simd.js', text);
    expect(chunks.some((c) => c.content.includes('AGFzbQEAAAAB'))).toBe(false);
    expect(chunks.map((c) => c.content).join('\n')).toContain('export function instantiate(imports)');
  });

  it('chunks 20,000-deep nested expressions and functions without blowing the stack', () => {
    const chunker = chunkers[2] as Chunker;
    const cases = [
      `const x = ${'(\n'.repeat(20_000)}1${')\n'.repeat(20_000)};\n`,
      `const y = ${'['.repeat(20_000)}${']'.repeat(20_000)};\n`,
      `${'function f() {\n'.repeat(5_000)}${'}\n'.repeat(5_000)}`,
      `const z = ${'{ a:\n'.repeat(20_000)}1${'}\n'.repeat(20_000)};\n`,
    ];
    for (const text of cases) {
      const started = performance.now();
      const chunks = chunker.chunk('deep.js', text);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(violation(text, chunks)).toBe(null);
    }
  });

  it('falls back to windows when parsing exceeds its time budget', async () => {
    const slow = await createChunker({ parseTimeoutMs: 0.001 });
    const text = Array.from({ length: 50_000 }, (_, i) => `function f${i}(a) { return a + ${i}; }`).join('\n');
    const chunks = slow.chunk('big.js', text);
    expect(new Set(chunks.map((c) => c.kind))).toEqual(new Set(['window']));
    expect(violation(text, chunks)).toBe(null);
    // the parser is reset: the next file parses normally
    expect(slow.chunk('small.js', 'function ok() {}\n').map((c) => c.kind)).toEqual(['function']);
  });

  it('never throws on garbage, binary-looking text or unbalanced code', () => {
    const chunker = chunkers[0] as Chunker;
    const inputs = [
      '\u0000\u0001\u0002 }}}{{{ ))) class class def def',
      '}\n}\n}\nfunction (\n',
      'class A:\n  def\n    @\n',
      '```\n# not a heading\n',
      '#!/usr/bin/env node\n',
    ];
    for (const [index, text] of inputs.entries()) {
      for (const path of ['g.ts', 'g.tsx', 'g.js', 'g.py', 'g.md', 'g.txt']) {
        const chunks = chunker.chunk(`${index}/${path}`, text);
        expect(violation(text, chunks)).toBe(null);
      }
    }
  });
});
