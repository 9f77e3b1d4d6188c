import { readdirSync, readFileSync } from 'node:fs';
import type { Chunk } from '@monorag/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunker } from './chunker.js';
import { bundledVocabulary } from './bundled-tokenizer.js';
import { createChunker } from './create-chunker.js';
import { isDataChunk } from './drop-data-chunks.js';
import { estimateTokens } from './estimate-tokens.js';
import { BERT_SPECIAL_TOKENS, createWordPieceCounter } from './wordpiece.js';

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

describe('a line over 2,000 characters among ordinary lines', () => {
  // The fresh-user trial's file: one 100 KB data line, a documented function, then 400 short lines
  // (average line about 230 characters, under the 500 of a minified file).
  const table = Array.from({ length: 4500 }, (_, i) => `"C${i}":"Country ${i}"`).join(',');
  const countries = [
    `export const COUNTRIES: Record<string, string> = {${table}};`,
    '',
    '/**',
    ' * The English name of a country for its ISO 3166 code, or undefined.',
    ' */',
    'export function countryNameForCode(code: string): string | undefined {',
    '  return COUNTRIES[code.toUpperCase()];',
    '}',
    '',
    ...Array.from({ length: 400 }, (_, i) => `export const REGION_${i} = 'region ${i}';`),
    '',
  ].join('\n');
  const multiLine = (chunker: Chunker, path: string, text: string): string[] =>
    chunker
      .chunk(path, text)
      .filter((c) => c.startLine < c.endLine && estimateTokens(`${c.header}\n${c.content}`) + BERT_SPECIAL_TOKENS > 256)
      .map((c) => `${c.startLine}-${c.endLine}`);

  it('keeps the syntax chunks and symbols of the other lines, and puts the long line in a chunk of its own', () => {
    const chunker = chunkers[2] as Chunker;
    expect(countries.split('\n')[0]!.length).toBeGreaterThan(100_000);
    const analysis = chunker.analyse('legacy/countries.ts', countries);
    expect(analysis.fallback).toBe(null);
    expect(analysis.symbols.filter((s) => s.role === 'definition' && s.kind === 'function').map((s) => [s.name, s.startLine, s.endLine])).toEqual([
      ['countryNameForCode', 6, 8],
    ]);
    expect(analysis.chunks.slice(0, 2).map((c) => [c.startLine, c.endLine, c.kind, c.symbol])).toEqual([
      [1, 1, 'window', null],
      [3, 8, 'function', 'countryNameForCode'],
    ]);
    expect(analysis.chunks[1]!.content).toContain('The English name of a country');
    expect(analysis.chunks.filter((c) => c.content.includes('"C0":"Country 0"')).map((c) => c.content.length)).toEqual([countries.split('\n')[0]!.length]);
    expect(violation(countries, analysis.chunks)).toBe(null);
    expect(multiLine(chunker, 'legacy/countries.ts', countries)).toEqual([]);
  });

  it('cuts a long line inside a function out of it, keeping the function name on every piece', () => {
    const text = [
      'export function render(name: string): string {',
      ...Array.from({ length: 8 }, (_, i) => `  const part${i} = name.slice(${i}, ${i + 1});`),
      `  const icon = 'data:image/svg+xml;utf8,${'<path d="M0 0h24v24H0z"/> '.repeat(100)}';`,
      ...Array.from({ length: 8 }, (_, i) => `  const tail${i} = part${i}.toUpperCase();`),
      '  return icon + part0 + tail0;',
      '}',
      '',
    ].join('\n');
    const analysis = (chunkers[2] as Chunker).analyse('src/render.ts', text);
    expect(analysis.fallback).toBe(null);
    expect(analysis.symbols.some((s) => s.role === 'definition' && s.name === 'render')).toBe(true);
    expect(analysis.chunks.map((c) => [c.startLine, c.endLine, c.symbol])).toEqual([
      [1, 9, 'render'],
      [10, 10, 'render'],
      [11, 20, 'render'],
    ]);
    expect(violation(text, analysis.chunks)).toBe(null);
  });

  it('parses the script of a Vue file with a long line in it', () => {
    const text = `<template><p>{{ label }}</p></template>\n<script lang="ts">\nconst PALETTE = [${'"#a0b0c0", '.repeat(300)}];\nexport function label(): string {\n  return PALETTE[0];\n}\n</script>\n`;
    const analysis = (chunkers[2] as Chunker).analyse('src/Label.vue', text);
    expect(analysis.fallback).toBe(null);
    expect(analysis.symbols.some((s) => s.role === 'definition' && s.name === 'label')).toBe(true);
    expect(analysis.chunks.filter((c) => c.content.includes('#a0b0c0')).map((c) => [c.startLine, c.endLine])).toEqual([[3, 3]]);
    expect(violation(text, analysis.chunks)).toBe(null);
  });

  it('still chunks by windows a file whose lines are mostly long, or average over 500 characters', () => {
    const chunker = chunkers[2] as Chunker;
    const long = `var a=${'1+'.repeat(1100)}1;`;
    // Half the non-blank lines are long; many blank lines keep the average under 500.
    const mostlyLong = `${Array.from({ length: 10 }, (_, i) => `${long}\nfunction f${i}() {}`).join('\n')}${'\n'.repeat(60)}`;
    expect(mostlyLong.length / mostlyLong.split('\n').length).toBeLessThan(500);
    expect(chunker.analyse('dist/a.js', mostlyLong).fallback).toBe('minified');
    expect(chunker.analyse('dist/b.js', `${long}\n${long}\nfunction g() {}\n`).fallback).toBe('minified');
  });
});

describe('ordinary lines around a long line (a user trial: line 151 in no chunk, or named after line 141)', () => {
  /** The trial's file: 149 one-line functions (lines 1-149), `long` on line 150, 149 more (151-299). */
  const aroundLong = (long: string): string =>
    [
      ...Array.from({ length: 149 }, (_, i) => `export function repline2Pre${i + 1}(x: number): number { return x + ${i + 1}; }`),
      long,
      ...Array.from({ length: 149 }, (_, i) => `export function repline2Post${i + 1}(y: number): number { return y * ${i + 1}; }`),
    ].join('\n') + '\n';
  const cases: { name: string; long: string; data: boolean }[] = [
    { name: 'a 3,000-character data string', long: `export const REPEATED2 = "${'abcdefghij'.repeat(300)}";`, data: true },
    { name: 'a 60,000-character data string', long: `export const REPEATED2 = "${'abcdefghij'.repeat(6000)}";`, data: true },
    { name: 'an SVG path', long: `export const ICON = '${'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2z '.repeat(40)}';`, data: false },
    { name: 'an English sentence', long: `export const NOTE = '${'The quick brown fox jumps over the lazy dog by the river. '.repeat(40)}';`, data: false },
  ];
  // Word pieces, as the CLI counts: a word over 100 characters is one [UNK], so a data line is a handful of
  // tokens (the default estimate counts it by its length). A vocabulary of [UNK] alone makes every word and
  // punctuation mark one token; all-MiniLM-L6-v2's own, when installed, is the trial's (line 151 lost).
  let counters: [string, Chunker][];
  beforeAll(async () => {
    const vocab = bundledVocabulary();
    counters = [
      ['word pieces', await createChunker({ countTokens: createWordPieceCounter(['[UNK]']) })],
      ['word pieces, limit 128', await createChunker({ countTokens: createWordPieceCounter(['[UNK]']), maxTokens: 128 })],
      ['estimate', chunkers[2] as Chunker],
      ...(vocab === null ? [] : [['all-MiniLM-L6-v2', await createChunker({ countTokens: createWordPieceCounter(vocab) })] as [string, Chunker]]),
    ];
  });

  it('covers every line but a data line exactly once, the long line in a chunk alone (a data line in none)', () => {
    const wrong: string[] = [];
    for (const [counter, chunker] of counters) {
      for (const { name, long, data } of cases) {
        const chunks = chunker.chunk('src/repline.ts', aroundLong(long));
        const owners = (line: number): string[] => chunks.filter((c) => c.startLine <= line && line <= c.endLine).map((c) => `${c.startLine}-${c.endLine}`);
        for (let line = 1; line <= 299; line++) {
          const expected = line !== 150 ? owners(line).length === 1 : owners(line).join() === (data ? '' : '150-150');
          if (!expected) wrong.push(`${counter}, ${name}: line ${line} in [${owners(line).join(', ')}]`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names each chunk after the first definition that starts in it; the long line is a window without a name', () => {
    const wrong: string[] = [];
    for (const [counter, chunker] of counters) {
      for (const { name, long } of cases) {
        const text = aroundLong(long);
        const lines = text.split('\n');
        const analysis = chunker.analyse('src/repline.ts', text);
        expect(analysis.symbols.find((s) => s.role === 'definition' && s.name === 'repline2Post1')).toMatchObject({ startLine: 151, endLine: 151 });
        for (const c of analysis.chunks) {
          const names = lines.slice(c.startLine - 1, c.endLine).flatMap((line) => /^export function (\w+)/.exec(line)?.[1] ?? []);
          const kind = names.length === 0 ? 'window' : names.length === 1 ? 'function' : 'module';
          const expected = `${kind} ${names[0] ?? null}`;
          if (`${c.kind} ${c.symbol}` !== expected) wrong.push(`${counter}, ${name}: ${c.startLine}-${c.endLine} ${c.kind} ${c.symbol}, not ${expected}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
